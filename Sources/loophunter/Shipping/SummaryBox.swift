import Foundation
import LoopHunterShip

/// The summary a detached shipping task hands to the thread waiting for it.
final class SummaryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ShipSummary?

    func set(_ summary: ShipSummary) {
        lock.lock()
        value = summary
        lock.unlock()
    }

    func get() -> ShipSummary? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

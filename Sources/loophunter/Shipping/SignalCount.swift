import Foundation

/// Counts signals received (from a dispatch source's queue).
final class SignalCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Counts one more; returns the count.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

import Foundation

/// Decides, exactly once, whether a run finished or its watchdog fired first.
package final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var settled = false
    private var fired = false

    package init() {}

    /// The watchdog's turn: true when the run has not finished (so it must be killed).
    package func fire() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if settled { return false }
        settled = true
        fired = true
        return true
    }

    /// The run finished: true when it did so before the watchdog fired.
    package func disarm() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        settled = true
        return !fired
    }
}

/// The stall watchdog's own counters (schema 1.3).
public struct SummaryWatchdog: Codable, Sendable, Equatable {
    public let running: Bool
    public let wakeups: UInt64
    /// Stacks taken by interrupting the stuck thread, and by scanning it from outside.
    public let signals: UInt64
    public let scans: UInt64
    /// Samples that could not be taken (written by the preload, not in the 1.3 text; nil when absent).
    public let lost: UInt64?
}

/// Event-loop stalls in a process (schema 1.3; nil when the stall hook family was off, and in
/// older files).
public struct SummaryStalls: Codable, Sendable, Equatable {
    public let count: UInt64
    public let longestMs: UInt64
    public let watchdog: SummaryWatchdog?
    /// LOOPHUNTER_STALL_MS.
    public let stallMs: UInt64

    enum CodingKeys: String, CodingKey {
        case count
        case longestMs = "longest_ms"
        case watchdog
        case stallMs = "stall_ms"
    }
}

/// Layout requests and their causes in a process (schema 1.6; nil when the layout hook family was
/// off): docs/causes.md.
public struct SummaryCauses: Codable, Sendable, Equatable {
    /// Requests seen, by the kind of their cause: `outside`, `in_layout`, `deferred`, `result`.
    public let requests: [String: UInt64]
    /// Requests per entry point (`gtk_widget_queue_resize`, `tk_view_set_needs_layout`, ...).
    public let entries: [SummaryCauseEntry]
    /// Frames of a frame clock counted towards a layout-loop (relaid out by layout-caused requests).
    public let framesCounted: UInt64
    /// The most frames counted back to back on one frame clock: how close the process came to a
    /// layout-loop (nil in files written before it was kept).
    public let longestRun: UInt64?
    /// Layout-caused requests after which the widget was never laid out (the toolkit ignored them).
    public let requestsLapsed: UInt64
    /// layout-loop breaches.
    public let loops: UInt64
    /// Cause records of callbacks added while layout ran (or by callbacks that were).
    public let recordsBorn: UInt64
    public let recordsLive: UInt64
    /// Records taken over because the pool was full.
    public let recordsTakenOver: UInt64
    /// Size reads seen by hardware watchpoints (nil in files written before they were).
    public let inlineReads: SummaryInlineReads?

    enum CodingKeys: String, CodingKey {
        case requests, entries
        case framesCounted = "frames_counted"
        case longestRun = "longest_run"
        case requestsLapsed = "requests_lapsed"
        case loops
        case recordsBorn = "records_born"
        case recordsLive = "records_live"
        case recordsTakenOver = "records_taken_over"
        case inlineReads = "inline_reads"
    }
}

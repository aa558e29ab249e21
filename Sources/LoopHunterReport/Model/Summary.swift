/// A process summary: written once at exit by every process that ran an event loop, laid
/// something out or breached (schema `loophunter/summary`, docs/report-schema.md).
public struct Summary: Codable, Sendable, Equatable {
    public let schema: String
    public let version: String
    public let id: String
    public let loophunterVersion: String
    public let process: ReportProcess
    public let started: String
    public let ended: String
    public let durationMs: UInt64
    /// Every LOOPHUNTER_* variable and the value in force.
    public let config: [String: ConfigValue]
    /// The start-up messages about bad values, as printed on stderr.
    public let configMessages: [String]
    public let iterationSource: IterationSource
    public let hooks: [SummaryHook]
    public let threads: [SummaryThread]
    public let recycledThreads: RecycledThreads
    public let threadsWithoutRecord: UInt64
    public let iterations: UInt64
    public let layoutCalls: UInt64
    /// The highest per-iteration count of one object, or nil when nothing was laid out.
    public let max: SummaryMax?
    /// The objects laid out most over the run, per hook (schema 1.1; nil in 1.0 files).
    public let topObjects: [SummaryObject]?
    public let table: SummaryTable
    public let reports: SummaryReports
    public let fingerprints: [SummaryFingerprint]
    /// GTK support in the process, when it had GTK (schema 1.1).
    public let gtk: SummaryGTK?
    /// Allocation accounting (schema 1.2): nil when the alloc hook family was off, and in older files.
    public let alloc: SummaryAlloc?
    /// Event-loop stalls (schema 1.3): nil when the stall hook family was off, and in older files.
    public let stalls: SummaryStalls?
    /// Every toplevel window seen, with its time to first frame (schema 1.3; at most 64): empty
    /// when none, nil when the window hook family was off, and in older files.
    public let windows: [SummaryWindow]?
    /// More windows were seen than `windows` lists.
    public let windowsTruncated: Bool?
    /// LOOPHUNTER_WINDOW_MS.
    public let windowMs: UInt64?
    /// Timer sources (schema 1.3): nil when the timer hook family was off, and in older files.
    public let timers: SummaryTimers?
    /// The seccomp sandbox the process entered (schema 1.4): nil when it entered none.
    public let sandbox: SummarySandbox?
    /// Layout requests by cause (schema 1.5): nil when the layout hook family was off, and in older files.
    public let causes: SummaryCauses?

    enum CodingKeys: String, CodingKey {
        case schema, version, id
        case loophunterVersion = "loophunter_version"
        case process, started, ended
        case durationMs = "duration_ms"
        case config
        case configMessages = "config_messages"
        case iterationSource = "iteration_source"
        case hooks, threads
        case recycledThreads = "recycled_threads"
        case threadsWithoutRecord = "threads_without_record"
        case iterations
        case layoutCalls = "layout_calls"
        case max
        case topObjects = "top_objects"
        case table, reports, fingerprints, gtk, alloc, stalls, windows
        case windowsTruncated = "windows_truncated"
        case windowMs = "window_ms"
        case timers, sandbox, causes
    }
}

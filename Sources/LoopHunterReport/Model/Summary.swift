/// A process summary: written by every process that ran an event loop, laid something out or
/// breached, or that `loophunter run` started (schema `loophunter/summary`, docs/report-schema.md).
/// Kept current while the process runs (``state`` `running`) and written for good when it leaves.
public struct Summary: Codable, Sendable, Equatable {
    public let schema: String
    public let version: String
    public let id: String
    public let loophunterVersion: String
    public let process: ReportProcess
    public let started: String
    /// The time of this version of the file (schema 1.5 also has it as ``updated``).
    public let ended: String
    /// Schema 1.5: `running` (a version written while the process ran: a process killed or crashed
    /// keeps its last one), `exited`, `_exit` (written in `_exit`/`_Exit`) or `exec` (written before
    /// an exec replaced the program); nil in older files, which were written at exit only.
    public let state: String?
    /// Schema 1.5: when this version was written.
    public let updated: String?
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
    /// The objects laid out most over the run, per hook (schema 1.1; nil in 1.0 files): the 64
    /// live ones laid out most, then (schema 1.5) the 32 destroyed ones laid out most, marked.
    public let topObjects: [SummaryObject]?
    /// Schema 1.5: distinct objects laid out over the run (a destroyed one and a new one at its
    /// address are two), of how many classes (a lower bound when ``classesTruncated``), and how
    /// many objects were destroyed after being laid out.
    public let objectsTracked: UInt64?
    public let classesTracked: UInt64?
    public let classesTruncated: Bool?
    public let objectsDestroyed: UInt64?
    public let table: SummaryTable
    public let reports: SummaryReports
    public let fingerprints: [SummaryFingerprint]
    /// GTK support in the process, when it had GTK (schema 1.1).
    public let gtk: SummaryGTK?
    /// Schema 1.5: the GUI toolkits whose libraries the process had loaded, supported or not; empty
    /// when none is known; nil in older files.
    public let toolkits: [SummaryToolkit]?
    /// Allocation accounting (schema 1.2): nil when the alloc hook family was off, and in older files.
    public let alloc: SummaryAlloc?
    /// Event-loop stalls (schema 1.3): nil when the stall hook family was off, and in older files.
    public let stalls: SummaryStalls?
    /// Every toplevel window shown, mapped or painted, with its time to first frame (schema 1.3;
    /// at most ``windowsLimit``, 256 since 1.5, 64 before): empty when none, nil when the window
    /// hook family was off, and in older files.
    public let windows: [SummaryWindow]?
    /// Windows were dropped: made or shown when the tables were full (``windowsDropped``).
    public let windowsTruncated: Bool?
    /// Schema 1.5: every window made (GTK 3 popups aside); those not followed for want of room;
    /// those never shown nor painted; GTK 3 popup windows (menus, tooltips); the list's bound.
    /// `windows.count + windowsNeverShown + windowsDropped == windowsSeen`.
    public let windowsSeen: UInt64?
    public let windowsDropped: UInt64?
    public let windowsNeverShown: UInt64?
    public let windowsPopups: UInt64?
    public let windowsLimit: UInt64?
    /// LOOPHUNTER_WINDOW_MS.
    public let windowMs: UInt64?
    /// Timer sources (schema 1.3): nil when the timer hook family was off, and in older files.
    public let timers: SummaryTimers?
    /// The seccomp sandbox the process entered (schema 1.4): nil when it entered none.
    public let sandbox: SummarySandbox?
    /// The GApplication the process ran (schema 1.5): nil when it ran none, and in older files.
    public let gapplication: SummaryGApplication?
    /// Layout requests by cause (schema 1.6): nil when the layout hook family was off, and in older files.
    public let causes: SummaryCauses?
    /// A `loophunter attach` session (schema 1.9): nil under the preload, and in older files.
    public let attach: SummaryAttach?

    enum CodingKeys: String, CodingKey {
        case schema, version, id
        case loophunterVersion = "loophunter_version"
        case process, started, ended, state, updated
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
        case objectsTracked = "objects_tracked"
        case classesTracked = "classes_tracked"
        case classesTruncated = "classes_truncated"
        case objectsDestroyed = "objects_destroyed"
        case table, reports, fingerprints, gtk, toolkits, alloc, stalls, windows
        case windowsTruncated = "windows_truncated"
        case windowsSeen = "windows_seen"
        case windowsDropped = "windows_dropped"
        case windowsNeverShown = "windows_never_shown"
        case windowsPopups = "windows_popups"
        case windowsLimit = "windows_limit"
        case windowMs = "window_ms"
        case timers, sandbox, gapplication, causes, attach
    }
}

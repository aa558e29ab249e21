/// What one process's summary says, in short.
public struct ProcessOverview: Sendable, Codable, Equatable {
    public let pid: Int
    public let executable: String
    public let started: String
    public let durationMs: UInt64
    /// Schema 1.5: `running`, `exited`, `_exit` or `exec` (``Summary/state``); nil in older files.
    public let state: String?
    /// Schema 1.5: the GUI toolkits the process had loaded, supported or not (empty: none known).
    public let toolkits: [SummaryToolkit]?
    /// Schema 1.5: distinct objects (widgets) laid out over the run, and their classes.
    public let objectsTracked: UInt64?
    public let classesTracked: UInt64?
    public let threads: Int
    public let iterations: UInt64
    public let layoutCalls: UInt64
    public let breaches: UInt64
    public let written: UInt64
    public let suppressed: UInt64
    public let joined: UInt64
    public let capped: UInt64
    public let failed: UInt64
    /// Layout hooks that were called at all: empty means LoopHunter saw no layout in this process
    /// (an unsupported toolkit, or layout calls it cannot interpose).
    public let layoutHooksCalled: [String]
    public let configMessages: [String]
    public let maxCount: UInt64
    public let maxType: String?
    /// Allocation calls and their bytes over the run, and the live heap at exit (schema 1.2; nil
    /// when the alloc hook family was off).
    public let allocationCalls: UInt64?
    public let allocatedBytes: UInt64?
    public let liveBytes: UInt64?
    /// False when no allocation reached LoopHunter (another allocator took every malloc call).
    public let mallocIsOurs: Bool?
    /// When allocations do not reach LoopHunter: the allocator that takes them and what to do.
    public let allocatorNote: String?
    /// Event-loop stalls and the longest (schema 1.3; nil when the stall hook family was off).
    public let stallCount: UInt64?
    public let longestStallMs: UInt64?
    /// Every toplevel window seen, with its time to first frame (schema 1.3; nil when the window
    /// hook family was off), whether more were seen than listed, and the limit.
    public let windows: [WindowOverview]?
    public let windowsTruncated: Bool?
    public let windowMs: UInt64?
    /// Schema 1.5: windows made, not followed for want of room, never shown (``Summary/windowsSeen``).
    public let windowsSeen: UInt64?
    public let windowsDropped: UInt64?
    public let windowsNeverShown: UInt64?
    /// Timer sources (schema 1.3; nil when the timer hook family was off).
    public let timers: SummaryTimers?

    /// `callbackName`: the name of a window step's callback (an entry address); by default the
    /// in-process symbol, else module and offset.
    public init(_ s: Summary, callbackName: (Frame) -> String = ProcessOverview.inProcessName) {
        pid = s.process.pid
        executable = s.process.executable
        started = s.started
        durationMs = s.durationMs
        state = s.state
        toolkits = s.toolkits
        objectsTracked = s.objectsTracked
        classesTracked = s.classesTracked
        threads = s.threads.count
        iterations = s.iterations
        layoutCalls = s.layoutCalls
        breaches = s.reports.breaches
        written = s.reports.written
        suppressed = s.reports.suppressed
        joined = s.reports.joinedLoop
        capped = s.reports.capped
        failed = s.reports.failed + s.reports.notWrittenNoDirectory
        layoutHooksCalled = s.hooks.filter { $0.family == "layout" && ($0.calls ?? 0) > 0 }.map(\.name)
        configMessages = s.configMessages
        maxCount = s.max?.count ?? 0
        maxType = s.max?.object.type
        allocationCalls = s.alloc?.calls
        allocatedBytes = s.alloc?.bytes
        liveBytes = s.alloc?.liveBytes
        mallocIsOurs = s.alloc?.mallocIsOurs
        allocatorNote = s.alloc?.allocator.flatMap { a in
            a.aheadOfLoophunter ? "\(a.name) (\(a.module)): \(a.note ?? "it takes every call first")" : nil
        }
        stallCount = s.stalls?.count
        longestStallMs = s.stalls?.longestMs
        windows = s.windows?.map { WindowOverview($0, callbackName: callbackName) }
        windowsTruncated = s.windowsTruncated
        windowMs = s.windowMs
        windowsSeen = s.windowsSeen
        windowsDropped = s.windowsDropped
        windowsNeverShown = s.windowsNeverShown
        timers = s.timers
    }

    /// A frame's in-process symbol, else `module+offset`.
    public static func inProcessName(_ frame: Frame) -> String {
        frame.symbol ?? "\(frame.module.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "?")+\(frame.offset ?? frame.pc)"
    }
}

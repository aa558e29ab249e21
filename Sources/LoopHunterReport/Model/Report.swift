/// A breach report: one JSON file written by the preload when a detector fired
/// (schema `loophunter/report`, documented in docs/report-schema.md).
public struct Report: Codable, Sendable, Equatable {
    public let schema: String
    public let version: String
    /// `layout-storm`, `layout-streak`, `toolkit-warning` (schema 1.1), `alloc-storm`,
    /// `heap-growth` (schema 1.2), `stall`, `slow-window`, `timer-storm`, `timer-outlives-target`
    /// (schema 1.3), `layout-loop` (schema 1.6); a later version may add more, read as
    /// ``ReportKind/other(_:)``.
    public let kind: ReportKind
    /// Unique across processes and machines: run tag, pid, sequence.
    public let id: String
    /// ISO 8601, UTC, microseconds.
    public let time: String
    public let timeNs: UInt64
    /// Stable across runs: kind, hook, object type and the top frames (module name + offset).
    public let fingerprint: String
    public let process: ReportProcess
    public let thread: ReportThread
    public let hook: ReportHook
    public let object: ReportObject
    /// What crossed the threshold, in `countUnit` (layouts in one iteration, hot iterations in a
    /// row, bytes or allocations in one iteration, bytes of heap growth).
    public let count: UInt64
    public let threshold: UInt64
    public let countUnit: String
    /// `layout-streak` only.
    public let streak: StreakDetail?
    /// `toolkit-warning` only (schema 1.1).
    public let warning: ToolkitWarning?
    /// The memory side (schema 1.2): nil when the alloc hook family was off, and in older files.
    public let alloc: ReportAlloc?
    /// `stall` only (schema 1.3).
    public let stall: ReportStall?
    /// `slow-window` only (schema 1.3).
    public let window: ReportWindow?
    /// `timer-storm` and `timer-outlives-target` only (schema 1.3).
    public let timer: ReportTimer?
    /// Why the layouts were requested (schema 1.6): every `layout-loop`, and other layout reports
    /// whose object had a layout-caused request; nil otherwise and in older files.
    public let cause: ReportCause?
    /// Other objects of the same loop.
    public let loopMembers: [LoopMember]
    /// The thread's last iterations, oldest first; the last one is the iteration of the breach.
    public let history: [HistoryEntry]
    /// What a history entry is: `iteration` (of the event loop) or `frame` (GTK's frame clock);
    /// nil in schema 1.0 files (iterations).
    public let historyUnit: String?
    /// Innermost first: the first frame is the code that called the hooked entry point (a stall:
    /// where the thread was stuck; a slow window: where it was created; a timer outliving its
    /// target: where the target was freed).
    public let frames: [Frame]
    public let framesTruncated: Bool
    /// `timer-outlives-target` only (schema 1.3): where the source was created, innermost first.
    public let createdFrames: [Frame]?

    enum CodingKeys: String, CodingKey {
        case schema, version, kind, id, time
        case timeNs = "time_ns"
        case fingerprint, process, thread, hook, object, count, threshold
        case countUnit = "count_unit"
        case streak, warning, alloc, stall, window, timer, cause
        case loopMembers = "loop_members"
        case history
        case historyUnit = "history_unit"
        case frames
        case framesTruncated = "frames_truncated"
        case createdFrames = "created_frames"
    }
}

// The fast path for reading many reports (see ``JSONTape``): the fields of the `Decodable`
// init, by the same keys.
extension Report: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        schema = try json.decode(CodingKeys.schema)
        version = try json.decode(CodingKeys.version)
        kind = try json.decode(CodingKeys.kind)
        id = try json.decode(CodingKeys.id)
        time = try json.decode(CodingKeys.time)
        timeNs = try json.decode(CodingKeys.timeNs)
        fingerprint = try json.decode(CodingKeys.fingerprint)
        process = try json.decode(CodingKeys.process)
        thread = try json.decode(CodingKeys.thread)
        hook = try json.decode(CodingKeys.hook)
        object = try json.decode(CodingKeys.object)
        count = try json.decode(CodingKeys.count)
        threshold = try json.decode(CodingKeys.threshold)
        countUnit = try json.decode(CodingKeys.countUnit)
        streak = try json.decodeIfPresent(CodingKeys.streak)
        warning = try json.decodeIfPresent(CodingKeys.warning)
        alloc = try json.decodeIfPresent(CodingKeys.alloc)
        stall = try json.decodeIfPresent(CodingKeys.stall)
        window = try json.decodeIfPresent(CodingKeys.window)
        timer = try json.decodeIfPresent(CodingKeys.timer)
        cause = try json.decodeIfPresent(CodingKeys.cause)
        loopMembers = try json.decode(CodingKeys.loopMembers)
        history = try json.decode(CodingKeys.history)
        historyUnit = try json.decodeIfPresent(CodingKeys.historyUnit)
        frames = try json.decode(CodingKeys.frames)
        framesTruncated = try json.decode(CodingKeys.framesTruncated)
        createdFrames = try json.decodeIfPresent(CodingKeys.createdFrames)
    }
}

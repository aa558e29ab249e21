/// One problem: every report of the same kind, hook, object type and app code (one fingerprint),
/// from any number of processes, with a representative report.
public struct Finding: Sendable, Equatable {
    /// Stable across runs and machines: 16 hex digits (see ``Analyzer/groupKey(kind:hook:type:detail:frames:depth:)``).
    public let id: String
    /// The kind of every report of the group.
    public let kind: ReportKind
    public let severity: Severity
    public let hook: String
    /// The representative report's object.
    public let object: ObjectRef
    /// Every distinct object seen (at most ``Analyzer/maximumObjects``).
    public let objects: [ObjectRef]
    /// One line: what happened, e.g. `StatusLabel 'status' laid out 101 times in one event-loop iteration`.
    public let title: String
    public let reportCount: Int
    /// Repeats the preloads did not write (same fingerprint), from the summaries.
    public let suppressed: UInt64
    public let firstSeen: String
    public let lastSeen: String
    public let processes: [ProcessRef]
    public let threads: [String]
    /// The highest count among the reports, with its threshold and unit.
    public let count: UInt64
    public let threshold: UInt64
    public let countUnit: String
    /// The rest of the loop (the representative's, then others').
    public let members: [LoopMember]
    /// The representative report's stack, symbolized, innermost first.
    public let stack: [SymbolizedFrame]
    /// The first frame of the app's own code: what to open in an editor. With a ``cause``, the
    /// code that re-requested layout (``FindingCause/requester``) when the request's stack has app
    /// code of its own.
    public let appFrame: SymbolizedFrame?
    /// The representative's event-loop history (the run-up to the breach).
    public let history: [HistoryEntry]
    /// What a history entry is: `iteration` or `frame`.
    public let historyUnit: String
    /// The representative report's memory side (schema 1.2), when the alloc hook family was on.
    public let alloc: ReportAlloc?
    /// The section only reports of the representative's kind have (a streak, a toolkit warning, a
    /// stall, a window or a timer), named where it names code; ``FindingDetail/none`` for kinds
    /// without one.
    public let detail: FindingDetail
    /// Why the representative's layouts were requested (schema 1.6 reports: every `layout-loop`,
    /// and storms and streaks whose object had a layout-caused request), symbolized; nil otherwise.
    public let cause: FindingCause?
    /// Files of the reports in this group.
    public let reportPaths: [String]
}

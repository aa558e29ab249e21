/// One problem: every report of the same kind, hook, object type and app code (one fingerprint),
/// from any number of processes, with a representative report.
public struct Finding: Sendable, Codable, Equatable {
    /// Stable across runs and machines: 16 hex digits (see ``Analyzer/groupKey(kind:hook:type:detail:frames:)``).
    public let id: String
    public let kind: String
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
    /// The first frame of the app's own code: what to open in an editor.
    public let appFrame: SymbolizedFrame?
    /// The representative's event-loop history (the run-up to the breach).
    public let history: [HistoryEntry]
    /// What a history entry is: `iteration` or `frame`.
    public let historyUnit: String
    /// `toolkit-warning`: the toolkit's message.
    public let warning: ToolkitWarning?
    public let streak: StreakDetail?
    /// The representative report's memory side (schema 1.2), when the alloc hook family was on.
    public let alloc: ReportAlloc?
    /// `stall` (schema 1.3): the representative report's stall section.
    public let stall: ReportStall?
    /// `slow-window` (schema 1.3): the representative report's window section, and its slowest
    /// steps with their callbacks named.
    public let window: ReportWindow?
    public let slowestSteps: [SymbolizedStep]?
    /// Timer kinds (schema 1.3): the representative report's timer section, and its callback
    /// named (symbolized at its entry address).
    public let timer: ReportTimer?
    public let timerCallback: SymbolizedFrame?
    /// `timer-outlives-target`: where the source was created, symbolized, innermost first (the
    /// `stack` is where its target was freed).
    public let createdStack: [SymbolizedFrame]?
    /// Files of the reports in this group.
    public let reportPaths: [String]
}

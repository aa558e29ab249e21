/// How the reports of one kind are grouped into findings (``ReportKind/grouping``): the parts of
/// the group key (``Analyzer/groupKey(kind:hook:type:detail:frames:depth:)``) that depend on the
/// kind. Kind and object type are always part of the key.
public struct ReportGrouping: Sendable, Hashable {
    /// The hook part of the key: nil for the report's own hook (the malloc family's entry points as
    /// one, `alloc`: see ``Analyzer/groupHook(of:)``), else this word for every report of the kind.
    public let hook: String?
    /// How many app frames (or, without any, toolkit frames) identify a group.
    public let depth: Int
    /// What else tells two reports apart: the first of these that the report carries; none when
    /// it carries none of them.
    public let details: [GroupingDetail]

    /// By default, as most kinds are grouped: by the report's own hook, ``Analyzer/groupDepth``
    /// frames, and nothing else.
    public init(hook: String? = nil, depth: Int = Analyzer.groupDepth, details: [GroupingDetail] = []) {
        self.hook = hook
        self.depth = depth
        self.details = details
    }
}

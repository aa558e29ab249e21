/// Why the representative report's layouts were requested (its ``ReportCause``), with the code it
/// names symbolized: the request's stack, the application function that made the request, and
/// for a deferred cause the callbacks that carried it from layout, each with where it was added.
public struct FindingCause: Sendable, Equatable, Codable {
    /// `in-layout`, `deferred` or `result` (see ``ReportCause/kind``).
    public let kind: String
    /// The request's entry point, e.g. `gtk_widget_queue_resize`.
    public let entry: String?
    /// The widget requested.
    public let widget: CauseWidget
    /// The stack of the request, symbolized, innermost first (LoopHunter's own frames left out).
    public let requestStack: [SymbolizedFrame]
    /// The Python or JavaScript functions running when the request was made, innermost first
    /// (frames of source ``SymbolSource/script``, module the language); empty when none ran.
    public let requestScript: [SymbolizedFrame]
    /// `Python` or `JavaScript` when ``requestScript`` has frames.
    public let scriptLanguage: String?
    /// The code that re-requested layout, and the finding's `where`: the first frame of the app's
    /// own code in ``requestStack``, else the innermost function of ``requestScript`` (a Python or
    /// JavaScript program's native stack shows the interpreter only). Nil when neither has one (a
    /// toolkit re-requesting layout by itself).
    public let requester: SymbolizedFrame?
    /// Deferred only: the callbacks that carried the request from layout, nearest first.
    public let addedBy: [FindingCauseLink]
    /// Older links of the chain were no longer known when the report was written.
    public let chainTruncated: Bool
    /// Deferred: where the chain began, `layout` or `geometry-change` (see ``ReportCause/beganIn``).
    public let beganIn: String?

    public init(kind: String, entry: String?, widget: CauseWidget, requestStack: [SymbolizedFrame],
                requestScript: [SymbolizedFrame] = [], scriptLanguage: String? = nil,
                requester: SymbolizedFrame?, addedBy: [FindingCauseLink], chainTruncated: Bool, beganIn: String? = nil) {
        self.kind = kind
        self.entry = entry
        self.widget = widget
        self.requestStack = requestStack
        self.requestScript = requestScript
        self.scriptLanguage = scriptLanguage
        self.requester = requester
        self.addedBy = addedBy
        self.chainTruncated = chainTruncated
        self.beganIn = beganIn
    }

    /// A deferred chain that began in a Qt Quick item's geometry change, not in layout.
    public var beganInGeometryChange: Bool {
        beganIn == "geometry-change" || addedBy.last?.kind == "geometry-change"
    }

    /// What the kind means, in a few words: `made while layout ran`.
    public var kindDescription: String {
        switch kind {
        case "in-layout": "made while layout ran"
        case "deferred" where beganInGeometryChange:
            "made by a callback that an item's geometry change added"
        case "deferred": "made by a callback that layout added"
        case "result": "made after reading the widget's size from its last layout"
        default: kind
        }
    }
}

/// Why a report's layouts were requested (schema 1.6): the cause of the layout request that closed
/// the loop. See docs/causes.md.
public struct ReportCause: Codable, Sendable, Equatable {
    /// `in-layout` (made while layout ran), `deferred` (by a callback layout added), `result` (after
    /// reading the widget's size since its last layout).
    public let kind: String
    /// The request's entry point, e.g. `gtk_widget_queue_resize` or `tk_view_set_needs_layout`.
    public let entry: String?
    /// The widget requested.
    public let widget: CauseWidget
    /// The stack of the request, innermost first, in the format of ``Report/frames``.
    public let requestStack: [Frame]
    /// The Python or JavaScript functions running when the request was made (schema 1.7; nil:
    /// no interpreter's code was running, or an older report).
    public let requestScript: ScriptStack?
    /// For a deferred cause: the callbacks that carried the request from layout, nearest first
    /// (the one that made the request, then the one that added it, ...).
    public let addedBy: [CauseLink]
    /// Older links were no longer known when the report was written.
    public let chainTruncated: Bool?
    /// Deferred: where the chain began, `layout` or `geometry-change` (a Qt Quick item's change
    /// handler); known even when older links are gone (schema 1.10; nil: not deferred, or older).
    public let beganIn: String?

    enum CodingKeys: String, CodingKey {
        case kind, entry, widget
        case requestStack = "request_stack"
        case requestScript = "request_script"
        case addedBy = "added_by"
        case chainTruncated = "chain_truncated"
        case beganIn = "began_in"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportCause: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        kind = try json.decode(CodingKeys.kind)
        entry = try json.decodeIfPresent(CodingKeys.entry)
        widget = try json.decode(CodingKeys.widget)
        requestStack = try json.decode(CodingKeys.requestStack)
        requestScript = try json.decodeIfPresent(CodingKeys.requestScript)
        addedBy = try json.decode(CodingKeys.addedBy)
        chainTruncated = try json.decodeIfPresent(CodingKeys.chainTruncated)
        beganIn = try json.decodeIfPresent(CodingKeys.beganIn)
    }
}

/// The cause side of a result's property bag (layout findings whose reports carry a cause): why
/// the layout was requested again, and the code that did it, as the other formats word it.
struct SARIFCauseProperties: Codable, Sendable, Equatable {
    /// `in-layout`, `deferred` or `result`.
    let kind: String
    /// The request's entry point, e.g. `gtk_widget_queue_resize`.
    let entry: String?
    /// The widget requested: its view path.
    let widget: String
    /// The code that re-requested layout (`file:line in function (module)`), nil when no frame of
    /// the app's code was on the request's stack.
    let requester: String?
    /// Deferred only: the callbacks that carried the request from layout, nearest first, each as
    /// `callback (module), added with g_idle_add while layout ran, at file:line in function (module)`.
    let addedBy: [String]
    let chainTruncated: Bool

    init(_ c: FindingCause) {
        kind = c.kind
        entry = c.entry
        widget = c.widget.path ?? ObjectRef(type: c.widget.type ?? "?", name: c.widget.name, path: "").label
        requester = FindingText.location(c.requester)
        addedBy = c.addedBy.map { FindingText.linkLine($0, of: c) }
        chainTruncated = c.chainTruncated
    }
}

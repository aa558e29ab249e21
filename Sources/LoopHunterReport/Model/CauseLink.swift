/// One callback of a deferred cause's chain (a report's ``ReportCause/addedBy``): added while layout
/// ran, or by a callback that was.
public struct CauseLink: Codable, Sendable, Equatable {
    /// The context it was added in: `in-layout`, `deferred` or `geometry-change` (a Qt Quick item's change handler).
    public let kind: String
    /// The entry point that added it, e.g. `g_idle_add` or `gtk_widget_add_tick_callback`.
    public let addedWith: String?
    /// The callback: a frame whose `offset` is the function's ENTRY address (symbolize at `offset`).
    public let callback: Frame?
    /// Where it was added, innermost first.
    public let stack: [Frame]

    enum CodingKeys: String, CodingKey {
        case kind
        case addedWith = "added_with"
        case callback, stack
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension CauseLink: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        kind = try json.decode(CodingKeys.kind)
        addedWith = try json.decodeIfPresent(CodingKeys.addedWith)
        callback = try json.decodeIfPresent(CodingKeys.callback)
        stack = try json.decode(CodingKeys.stack)
    }
}

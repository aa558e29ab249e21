/// The interposed entry point that counted the calls.
public struct ReportHook: Codable, Sendable, Equatable {
    /// e.g. `tk_view_layout`.
    public let name: String
    /// `layout`, `loop`, `log`, `alloc`, `stall`, `window` or `timer` (a stall is written with
    /// `loop`, the family of the wait its iteration began from, by the 1.3 preload).
    public let family: String
    /// The toolkit adapter that described the object (`toykit`), when there is one.
    public let toolkit: String?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportHook: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        name = try json.decode(CodingKeys.name)
        family = try json.decode(CodingKeys.family)
        toolkit = try json.decodeIfPresent(CodingKeys.toolkit)
    }
}

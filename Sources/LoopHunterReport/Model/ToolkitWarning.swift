/// What a `toolkit-warning` report adds: the toolkit's own log message (schema 1.1).
public struct ToolkitWarning: Codable, Sendable, Equatable {
    /// GLib log domain: `Gtk`, `Gdk`.
    public let domain: String?
    /// `warning`, `critical`, ...
    public let level: String
    /// The message as it was printed.
    public let message: String
    /// The printf format it came from (the same for every occurrence; addresses and sizes vary).
    public let format: String?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ToolkitWarning: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        domain = try json.decodeIfPresent(CodingKeys.domain)
        level = try json.decode(CodingKeys.level)
        message = try json.decode(CodingKeys.message)
        format = try json.decodeIfPresent(CodingKeys.format)
    }
}

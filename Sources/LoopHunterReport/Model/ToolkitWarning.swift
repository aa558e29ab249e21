/// What a `toolkit-warning` report adds: the toolkit's own log message (schema 1.1).
public struct ToolkitWarning: Codable, Sendable, Equatable {
    /// GLib log domain: `Gtk`, `Gdk`; `Qt` for Qt's messages (its message handler).
    public let domain: String?
    /// `warning`, `critical`, ...
    public let level: String
    /// The message as it was printed.
    public let message: String
    /// The printf format it came from (the same for every occurrence; addresses and sizes vary).
    public let format: String?
    /// Where the report's object comes from (schema 1.5): `message` (the text names the widget),
    /// `layout` (the text names none: the widget being laid out or measured on the thread when the
    /// toolkit warned), or nil (no widget: the object is the log domain; and in older files).
    public let objectSource: String?

    enum CodingKeys: String, CodingKey {
        case domain, level, message, format
        case objectSource = "object_source"
    }

    public init(domain: String?, level: String, message: String, format: String?, objectSource: String? = nil) {
        self.domain = domain
        self.level = level
        self.message = message
        self.format = format
        self.objectSource = objectSource
    }

    /// The report's object is the widget whose layout was running when the toolkit warned.
    public var objectIsLayoutInProgress: Bool { objectSource == "layout" }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ToolkitWarning: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        domain = try json.decodeIfPresent(CodingKeys.domain)
        level = try json.decode(CodingKeys.level)
        message = try json.decode(CodingKeys.message)
        format = try json.decodeIfPresent(CodingKeys.format)
        objectSource = try json.decodeIfPresent(CodingKeys.objectSource)
    }
}

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

/// The interposed entry point that counted the calls.
public struct ReportHook: Codable, Sendable, Equatable {
    /// e.g. `tk_view_layout`.
    public let name: String
    /// `layout` or `loop`.
    public let family: String
    /// The toolkit adapter that described the object (`toykit`), when there is one.
    public let toolkit: String?
}

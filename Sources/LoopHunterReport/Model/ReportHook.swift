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

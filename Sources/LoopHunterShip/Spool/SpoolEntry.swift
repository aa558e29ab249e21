/// One report file in the spool: its name (the preload's, `report-<pid>-<tag>-<seq>-<kind>.json`)
/// and where it is now.
public struct SpoolEntry: Sendable, Hashable {
    /// The file name, the same in the report directory and in every spool state.
    public let name: String
    /// Its current path (in this shipper's in-flight directory once claimed).
    public let path: String
    /// Size in bytes when it was claimed.
    public let bytes: Int

    public init(name: String, path: String, bytes: Int) {
        self.name = name
        self.path = path
        self.bytes = bytes
    }
}

/// The object that crossed the threshold, as its toolkit describes it.
public struct ReportObject: Codable, Sendable, Equatable {
    /// `0x...`; another object may reuse the address after this one is freed.
    public let address: String
    /// Type name, e.g. `StatusLabel`.
    public let type: String
    /// The object's own name, when it has one.
    public let name: String?
    /// Display path from the root: `TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status'`.
    public let path: String
    /// Root first, not including the object.
    public let ancestors: [ViewName]
    public let ancestorsTruncated: Bool
    public let geometry: Geometry?

    enum CodingKeys: String, CodingKey {
        case address, type, name, path, ancestors
        case ancestorsTruncated = "ancestors_truncated"
        case geometry
    }
}

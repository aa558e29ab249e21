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

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportObject: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        address = try json.decode(CodingKeys.address)
        type = try json.decode(CodingKeys.type)
        name = try json.decodeIfPresent(CodingKeys.name)
        path = try json.decode(CodingKeys.path)
        ancestors = try json.decode(CodingKeys.ancestors)
        ancestorsTruncated = try json.decode(CodingKeys.ancestorsTruncated)
        geometry = try json.decodeIfPresent(CodingKeys.geometry)
    }
}

/// Another object caught in the same loop as the report's object.
public struct LoopMember: Codable, Sendable, Equatable {
    public let address: String
    public let type: String
    public let name: String?
    public let hook: String
    /// In the report's `countUnit`.
    public let count: UInt64
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension LoopMember: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        address = try json.decode(CodingKeys.address)
        type = try json.decode(CodingKeys.type)
        name = try json.decodeIfPresent(CodingKeys.name)
        hook = try json.decode(CodingKeys.hook)
        count = try json.decode(CodingKeys.count)
    }
}

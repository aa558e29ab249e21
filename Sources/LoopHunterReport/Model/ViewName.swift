/// A type name and, when set, an object name: one step of an ancestor path.
public struct ViewName: Codable, Sendable, Equatable {
    public let type: String
    public let name: String?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ViewName: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        type = try json.decode(CodingKeys.type)
        name = try json.decodeIfPresent(CodingKeys.name)
    }
}

/// A width and height in the toolkit's units.
public struct Size: Codable, Sendable, Equatable {
    public let width: Int
    public let height: Int
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension Size: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        width = try json.decode(CodingKeys.width)
        height = try json.decode(CodingKeys.height)
    }
}

/// A frame (position and size) in the toolkit's units.
public struct Geometry: Codable, Sendable, Equatable {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension Geometry: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        x = try json.decode(CodingKeys.x)
        y = try json.decode(CodingKeys.y)
        width = try json.decode(CodingKeys.width)
        height = try json.decode(CodingKeys.height)
    }
}

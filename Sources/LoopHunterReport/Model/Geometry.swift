/// A frame (position and size) in the toolkit's units.
public struct Geometry: Codable, Sendable, Equatable {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int
}

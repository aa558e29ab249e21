/// A width and height in the toolkit's units.
public struct Size: Codable, Sendable, Equatable {
    public let width: Int
    public let height: Int
}

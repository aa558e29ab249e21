/// A type name and, when set, an object name: one step of an ancestor path.
public struct ViewName: Codable, Sendable, Equatable {
    public let type: String
    public let name: String?
}

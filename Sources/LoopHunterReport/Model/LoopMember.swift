/// Another object caught in the same loop as the report's object.
public struct LoopMember: Codable, Sendable, Equatable {
    public let address: String
    public let type: String
    public let name: String?
    public let hook: String
    /// In the report's `countUnit`.
    public let count: UInt64
}

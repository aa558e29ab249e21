/// An object named in a summary: its address and type (its name may be gone by exit).
public struct SummaryObjectRef: Codable, Sendable, Equatable {
    public let address: String
    public let type: String?
}

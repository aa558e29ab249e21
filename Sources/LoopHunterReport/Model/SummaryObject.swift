/// One of the objects laid out most in a process: its address, type, hook and calls over the run.
public struct SummaryObject: Codable, Sendable, Equatable {
    public let address: String
    public let type: String?
    public let hook: String?
    public let calls: UInt64
}

/// The highest per-iteration count of one object in the process.
public struct SummaryMax: Codable, Sendable, Equatable {
    public let count: UInt64
    public let hook: String?
    public let tid: Int
    public let iteration: UInt64
    public let object: SummaryObjectRef
}

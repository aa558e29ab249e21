/// Totals of exited threads whose records were reused (more threads than the record pool holds).
public struct RecycledThreads: Codable, Sendable, Equatable {
    public let threads: UInt64
    public let iterations: UInt64
    public let layoutCalls: UInt64

    enum CodingKeys: String, CodingKey {
        case threads, iterations
        case layoutCalls = "layout_calls"
    }
}

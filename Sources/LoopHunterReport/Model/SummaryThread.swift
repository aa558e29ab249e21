/// A thread that ran an event loop or laid something out.
public struct SummaryThread: Codable, Sendable, Equatable {
    public let tid: Int
    public let name: String
    /// `running` at exit, or `exited`.
    public let state: String
    public let iterations: UInt64
    /// Toolkit frames (schema 1.1; nil in 1.0 files).
    public let frames: UInt64?
    public let layoutIterations: UInt64
    public let layoutCalls: UInt64
    /// Highest number of layouts of one object in one iteration on this thread.
    public let maxCount: UInt64
    /// The thread's allocation counters (schema 1.2; nil when the alloc hook family was off, or
    /// the thread had no counters of its own).
    public let alloc: AllocCounts?

    enum CodingKeys: String, CodingKey {
        case tid, name, state, iterations, frames
        case layoutIterations = "layout_iterations"
        case layoutCalls = "layout_calls"
        case maxCount = "max_count"
        case alloc
    }
}

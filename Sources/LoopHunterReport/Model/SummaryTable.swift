/// The (object, hook) table at exit.
public struct SummaryTable: Codable, Sendable, Equatable {
    /// LOOPHUNTER_TABLE_SLOTS in force.
    public let slots: UInt64
    /// Distinct (object, hook) pairs seen.
    public let objects: UInt64
    /// Calls not counted because the table was full.
    public let droppedCalls: UInt64

    enum CodingKeys: String, CodingKey {
        case slots, objects
        case droppedCalls = "dropped_calls"
    }
}

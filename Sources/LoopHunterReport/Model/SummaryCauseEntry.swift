/// Layout requests made through one entry point (a summary's ``SummaryCauses/entries``).
public struct SummaryCauseEntry: Codable, Sendable, Equatable {
    public let entry: String
    public let requests: UInt64
}

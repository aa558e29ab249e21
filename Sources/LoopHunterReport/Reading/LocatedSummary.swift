/// A summary and the file it was read from.
public struct LocatedSummary: Sendable, Equatable {
    public let path: String
    public let summary: Summary

    public init(path: String, summary: Summary) {
        self.path = path
        self.summary = summary
    }
}

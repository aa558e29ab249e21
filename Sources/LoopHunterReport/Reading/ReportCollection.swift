/// Everything read from one report directory.
public struct ReportCollection: Sendable {
    public let directory: String
    /// Oldest first.
    public var reports: [LocatedReport] = []
    public var summaries: [LocatedSummary] = []
    /// Files that could not be used, each with its message.
    public var problems: [ReportFileError] = []

    public init(directory: String, reports: [LocatedReport] = [], summaries: [LocatedSummary] = [],
                problems: [ReportFileError] = []) {
        self.directory = directory
        self.reports = reports
        self.summaries = summaries
        self.problems = problems
    }
}

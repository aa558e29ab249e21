/// Everything read from one report directory.
public struct ReportCollection: Sendable {
    public let directory: String
    /// Oldest first.
    public var reports: [LocatedReport] = []
    public var summaries: [LocatedSummary] = []
    /// Files that could not be used, each with its message.
    public var problems: [ReportFileError] = []

    /// A spooled record also unpacked into a file (``SpoolUnpacker``) is read twice: keep the file.
    mutating func dropSpooledDuplicates() {
        let fileReports = Set(reports.filter { !$0.path.contains(SpoolFile.suffix + "#") }.map(\.report.id))
        reports.removeAll { $0.path.contains(SpoolFile.suffix + "#") && fileReports.contains($0.report.id) }
        let fileSummaries = Set(summaries.filter { !$0.path.contains(SpoolFile.suffix + "#") }.map(\.summary.id))
        summaries.removeAll { $0.path.contains(SpoolFile.suffix + "#") && fileSummaries.contains($0.summary.id) }
    }

    public init(directory: String, reports: [LocatedReport] = [], summaries: [LocatedSummary] = [],
                problems: [ReportFileError] = []) {
        self.directory = directory
        self.reports = reports
        self.summaries = summaries
        self.problems = problems
    }
}

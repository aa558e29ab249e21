/// A report and the file it was read from.
public struct LocatedReport: Sendable, Equatable {
    public let path: String
    public let report: Report

    public init(path: String, report: Report) {
        self.path = path
        self.report = report
    }
}

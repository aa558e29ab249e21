/// What reading one file of a report directory gave.
enum ReadOutcome: Sendable {
    case report(Report)
    case summary(Summary)
    case problem(ReportFileError)
    /// Not a file to read (a subdirectory).
    case skipped
}

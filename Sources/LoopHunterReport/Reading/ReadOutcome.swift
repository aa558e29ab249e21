/// What reading one file of a report directory gave.
enum ReadOutcome: Sendable {
    case report(Report)
    case summary(Summary)
    case problem(ReportFileError)
    /// A spool file: the outcome of each of its records.
    case spool([ReadOutcome])
    /// Not a file to read (a subdirectory).
    case skipped
}

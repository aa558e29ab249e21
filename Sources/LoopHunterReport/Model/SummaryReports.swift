/// What happened to the process's breaches.
public struct SummaryReports: Codable, Sendable, Equatable {
    /// Detector firings.
    public let breaches: UInt64
    /// Report files written.
    public let written: UInt64
    /// Not written: the same fingerprint was already reported (LOOPHUNTER_THROTTLE_SECS).
    public let suppressed: UInt64
    /// Not written: the object was part of a loop already reported in the same iteration.
    public let joinedLoop: UInt64
    /// Not written: LOOPHUNTER_MAX_REPORTS was reached.
    public let capped: UInt64
    /// Not written: the file could not be written (full disk, directory removed).
    public let failed: UInt64
    /// Not written: the report directory was unusable from the start.
    public let notWrittenNoDirectory: UInt64
    /// Breaches that could not be throttled because every throttle entry was in use.
    public let throttleTableFull: UInt64
    /// Mean cost of the breach path on the breaching thread (capture, resolve, compose, and the
    /// file's writing when no writer thread took it), microseconds.
    public let breachPathMeanUs: UInt64
    /// The report writer thread (nil in files written before it).
    public let writer: SummaryReportWriter?

    enum CodingKeys: String, CodingKey {
        case breaches, written, suppressed
        case joinedLoop = "joined_loop"
        case capped, failed
        case notWrittenNoDirectory = "not_written_no_directory"
        case throttleTableFull = "throttle_table_full"
        case breachPathMeanUs = "breach_path_mean_us"
        case writer
    }
}

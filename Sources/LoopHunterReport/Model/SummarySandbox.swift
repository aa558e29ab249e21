/// A process that put itself in a seccomp sandbox after start-up (schema 1.4): what LoopHunter did
/// to keep writing within it.
public struct SummarySandbox: Codable, Sendable, Equatable {
    /// How the filter was installed: `prctl(PR_SET_SECCOMP)` or `seccomp(SECCOMP_SET_MODE_FILTER)`.
    public let enteredBy: String
    /// When, in ms since LoopHunter started in the process.
    public let enteredMs: UInt64
    /// The spool file the records went to (nil when the report directory was unusable).
    public let spool: String?
    /// Reports appended to the spool.
    public let recordsSpooled: UInt64
    /// Reports that could not be appended (no spool, a full disk): lost.
    public let recordsLost: UInt64

    enum CodingKeys: String, CodingKey {
        case spool
        case enteredBy = "entered_by"
        case enteredMs = "entered_ms"
        case recordsSpooled = "records_spooled"
        case recordsLost = "records_lost"
    }
}

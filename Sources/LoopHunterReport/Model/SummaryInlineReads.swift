/// Size reads no call showed (a toolkit getter inline in its headers, Qt's `QWidget::width()`),
/// seen by hardware watchpoints on a suspect widget's size (summary `causes.inline_reads`, schema
/// 1.6 files written since watches exist; docs/causes.md, "Reads no call shows").
public struct SummaryInlineReads: Codable, Sendable, Equatable {
    /// Watches pointed at a widget's size over the run (at most two at a time).
    public let watchesArmed: UInt64
    /// Watches given back after 8 requests in a row that followed no read.
    public let watchesGivenBackQuiet: UInt64
    /// Watches given back after their 64 requests (a loop is reported well within them).
    public let watchesGivenBackSpent: UInt64
    /// Watches given back because their widget stopped asking.
    public let watchesGivenBackIdle: UInt64
    /// Reads and writes of watched sizes the CPU reported (the toolkit's own included).
    public let accesses: UInt64
    /// Accesses the kernel could not record (its ring was full).
    public let accessesLost: UInt64
    /// Outside requests found to follow a read of the widget's size by the program's code.
    public let requestsAfterARead: UInt64
    /// Why nothing can be watched in this process: the call that failed (`perf_event_open`, `mmap`)
    /// and its errno (1: a seccomp profile, as a container's, or `kernel.perf_event_paranoid`);
    /// nil when watches work (or none was needed).
    public let unavailableCall: String?
    public let unavailableErrno: Int32?

    enum CodingKeys: String, CodingKey {
        case watchesArmed = "watches_armed"
        case watchesGivenBackQuiet = "watches_given_back_quiet"
        case watchesGivenBackSpent = "watches_given_back_spent"
        case watchesGivenBackIdle = "watches_given_back_idle"
        case accesses
        case accessesLost = "accesses_lost"
        case requestsAfterARead = "requests_after_a_read"
        case unavailableCall = "unavailable_call"
        case unavailableErrno = "unavailable_errno"
    }
}

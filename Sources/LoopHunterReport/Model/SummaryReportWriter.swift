/// The report writer thread's counters (`reports.writer`; absent in files written before it).
///
/// Report files are written by a thread of LoopHunter's once the process wrote its first report, so
/// that the thread that breached does not wait on the file system.
public struct SummaryReportWriter: Codable, Sendable, Equatable {
    /// The writer thread was taking reports when the summary was written (false at exit: the queue
    /// is closed and drained first).
    public let running: Bool
    /// Reports handed to the writer thread.
    public let queued: UInt64
    /// Queued reports the leaving thread (exit, exec, a sandbox's start) wrote instead, or failed to.
    public let writtenAtLeaving: UInt64
    /// Reports written by their breaching thread because the queue had no room.
    public let queueFull: UInt64
    /// Reports written by their breaching thread because another thread was queueing one.
    public let producerBusy: UInt64
    /// Reports written by their breaching thread because they were larger than a quarter of the queue.
    public let tooLarge: UInt64
    /// Writes that failed for want of a descriptor, memory or disk space, and were tried again later.
    public let writeRetries: UInt64
    /// The writer opened report files in a descriptor table of its own, where the program never
    /// sees them (false: under a seccomp filter or on a kernel before 5.9, it shared the program's;
    /// absent in files written before it).
    public let ownDescriptorTable: Bool?

    enum CodingKeys: String, CodingKey {
        case running, queued
        case writtenAtLeaving = "written_at_leaving"
        case queueFull = "queue_full"
        case producerBusy = "producer_busy"
        case tooLarge = "too_large"
        case writeRetries = "write_retries"
        case ownDescriptorTable = "own_descriptor_table"
    }
}

/// Where a report is in its delivery: each state is a directory of the spool, and a report moves
/// from one to the next by an atomic `rename(2)`, so it is always in exactly one of them.
public enum SpoolState: String, CaseIterable, Sendable {
    /// Taken in from the report directory (a hard link to the preload's file), not sent yet.
    case pending
    /// Claimed by one running shipper (`in-flight/<owner>/`), in a request that has not settled.
    case inFlight = "in-flight"
    /// Accepted by the collector.
    case sent
    /// Refused by the collector (400), or set aside as unusable, with the reason beside it.
    case rejected

    /// The directory name inside the spool.
    public var directoryName: String { rawValue }
}

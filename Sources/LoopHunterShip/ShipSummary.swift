/// What a shipping run did, for the progress display and the final line.
public struct ShipSummary: Sendable, Equatable {
    /// Reports this run had to send: pending at the start, plus those taken in while it ran.
    public var queued = 0
    /// Accepted by the collector.
    public var sent = 0
    /// Refused by the collector (now in `rejected/`).
    public var rejected = 0
    /// Unusable files set aside in `rejected/` without being sent (not JSON, too large, ...).
    public var setAside = 0
    /// Answered with a status OTLP forbids retrying (500, ...): kept pending for a later run.
    public var held = 0
    /// Still in `pending/` at the end (held ones included).
    public var pending = 0
    /// In the in-flight directory of another shipper that is still running.
    public var withOtherShippers = 0
    /// Dead shippers' in-flight reports given back to pending at the start.
    public var recovered = 0
    /// HTTP requests made (retries included).
    public var requests = 0
    /// Log records an OTLP collector said it dropped (partial success).
    public var partiallyRejected: Int64 = 0
    /// Sent and rejected reports removed by the retention caps.
    public var evicted = 0
    /// Why the last report was refused or held, in the collector's words.
    public var lastRefusal: String?
    public var heldReason: String?
    /// Why shipping ended early, when it did.
    public var stop: ShipStop?

    public init() {}

    /// Reports settled by this run (sent, refused or set aside).
    public var settled: Int { sent + rejected + setAside }
}

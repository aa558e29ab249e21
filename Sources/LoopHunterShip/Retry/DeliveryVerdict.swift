/// What the shipper does with a request after an answer (or none).
public enum DeliveryVerdict: Sendable, Equatable {
    /// 2xx: the reports are sent. `partiallyRejected` log records were dropped by an OTLP
    /// collector that said so (partial success); they are not sent again.
    case delivered(partiallyRejected: Int64, message: String?)
    /// Connection error, timeout, 429, 502, 503, 504: send again after `after` seconds when the
    /// collector said (Retry-After), else after the backoff.
    case retry(after: Double?, reason: String)
    /// 400, 413, 422: the collector refuses the content. One report goes to `rejected/`; a batch
    /// is split in halves and each half sent once, so one bad report takes no good one with it.
    case refused(reason: String)
    /// 415 to a gzipped body: send it again uncompressed, and stop compressing.
    case compressionRefused
    /// 500 and other errors that OTLP forbids retrying: not sent again by this run, but kept
    /// pending for the next one (never dropped).
    case held(reason: String)
    /// The collector cannot be used as configured (401, 403, 404, 405, a redirect, another 4xx,
    /// an untrusted certificate): stop, keep every report pending.
    case collectorUnusable(reason: String)
}

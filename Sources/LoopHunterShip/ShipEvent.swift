/// Something a person watching a shipping run should know (the totals come with it, in a
/// ``ShipSummary``).
public enum ShipEvent: Sendable, Equatable {
    /// Shipping began (the summary says how many reports are queued).
    case started
    /// More reports were taken in (live shipping).
    case queued(Int)
    /// A request with this many reports was accepted.
    case delivered(Int)
    /// A report was refused by the collector or set aside as unusable.
    case rejected(name: String, reason: String)
    /// Requests wait this long before the next try.
    case waiting(seconds: Double, reason: String)
    /// A line worth printing once (a file left alone, compression switched off, ...).
    case notice(String)
}

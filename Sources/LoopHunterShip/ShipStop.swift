/// Why shipping ended before every report was sent.
public enum ShipStop: Sendable, Equatable {
    /// Retrying did not get through within `--retry-for` (unreachable, or 429/5xx throughout).
    case gaveUp(String)
    /// The collector cannot be used as configured (authentication, TLS, URL): retrying won't help.
    case collectorUnusable(String)
    /// The user stopped it (Ctrl-C, SIGTERM).
    case interrupted
}

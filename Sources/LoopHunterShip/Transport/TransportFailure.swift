/// A request that got no HTTP answer.
public enum TransportFailure: Sendable, Equatable {
    /// No connection, or it broke (refused, reset, DNS, closed early): retried.
    case connection(String)
    /// No complete answer within the request timeout: retried.
    case timeout(String)
    /// The TLS handshake failed (an untrusted or mismatched certificate): not retried.
    case tls(String)
}

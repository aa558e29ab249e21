/// Whether request bodies are gzipped.
public enum CompressionMode: String, CaseIterable, Sendable {
    /// gzip when the collector takes it: OTLP starts with gzip (OTLP/HTTP receivers decode it),
    /// JSON starts without; a response's `Accept-Encoding` (RFC 7694) switches it on or off, and a
    /// 415 answer to a gzipped body switches it off and sends the body again, uncompressed.
    case auto
    /// Always gzip.
    case gzip
    /// Never.
    case none
}

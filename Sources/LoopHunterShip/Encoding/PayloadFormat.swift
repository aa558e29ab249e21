/// What a request to the collector carries.
public enum PayloadFormat: String, CaseIterable, Sendable {
    /// OTLP/HTTP logs: many reports per request, each a LogRecord (`POST /v1/logs` by default),
    /// in protobuf or JSON (``OTLPEncoding``).
    case otlp
    /// One report per request, the report file's JSON as it is, with an `Idempotency-Key` header.
    case json
}

/// How an OTLP/HTTP request body is encoded. Both are written from the same generated messages
/// (``OTLPMessages``), so they carry the same records and attributes.
public enum OTLPEncoding: String, CaseIterable, Sendable {
    /// Binary protobuf, `Content-Type: application/x-protobuf`: OTLP/HTTP's default (every
    /// collector takes it), and the smaller and cheaper of the two.
    case protobuf
    /// The OTLP/JSON encoding, `Content-Type: application/json` (lowerCamelCase field names,
    /// 64-bit integers as decimal strings, enums as numbers): for receivers that take only JSON.
    case json

    /// The request's `Content-Type`.
    public var contentType: String {
        switch self {
        case .protobuf: return "application/x-protobuf"
        case .json: return "application/json"
        }
    }
}

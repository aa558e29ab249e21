/// An OTLP `AnyValue`: what an attribute or a body holds. The mapping (``OTLPLogMapper``) builds
/// these; ``OTLPMessages`` turns them into the generated protobuf messages that both OTLP encodings
/// are written from.
public indirect enum OTLPAnyValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case double(Double)
    case array([OTLPAnyValue])
    case keyValues([OTLPKeyValue])
}

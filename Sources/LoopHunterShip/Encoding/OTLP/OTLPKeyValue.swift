/// An OTLP attribute: `{"key": ..., "value": AnyValue}`.
public struct OTLPKeyValue: Encodable, Sendable, Equatable {
    public let key: String
    public let value: OTLPAnyValue

    public init(_ key: String, _ value: OTLPAnyValue) {
        self.key = key
        self.value = value
    }
}

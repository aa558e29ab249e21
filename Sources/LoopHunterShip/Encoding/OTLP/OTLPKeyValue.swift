/// An OTLP attribute: a key and its ``OTLPAnyValue``.
public struct OTLPKeyValue: Sendable, Equatable {
    public let key: String
    public let value: OTLPAnyValue

    public init(_ key: String, _ value: OTLPAnyValue) {
        self.key = key
        self.value = value
    }
}

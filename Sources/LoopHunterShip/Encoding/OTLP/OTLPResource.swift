/// An OTLP `Resource`: what produced the records (the process that wrote the reports).
public struct OTLPResource: Sendable, Equatable {
    public let attributes: [OTLPKeyValue]
}

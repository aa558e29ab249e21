/// An OTLP `InstrumentationScope`: LoopHunter, with the version of the shipping loophunter.
public struct OTLPScope: Encodable, Sendable, Equatable {
    public let name: String
    public let version: String
}

/// An OTLP `InstrumentationScope`: LoopHunter, with the version of the shipping loophunter.
public struct OTLPScope: Sendable, Equatable {
    public let name: String
    public let version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

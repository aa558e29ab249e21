/// Everything a ``Shipper`` needs to know, with the documented defaults.
public struct ShipConfiguration: Sendable {
    public var endpoint: CollectorEndpoint
    public var format: PayloadFormat
    /// How OTLP bodies are encoded (protobuf, OTLP/HTTP's default, or JSON).
    public var otlpEncoding: OTLPEncoding = .protobuf
    public var token: CollectorToken?
    /// The header that carries the token (`Authorization: Bearer TOKEN` by default).
    public var tokenHeader: String = "Authorization"
    public var tls = TLSOptions()
    public var compression: CompressionMode = .auto
    /// Reports per OTLP request at most (the JSON format sends one per request).
    public var batchSize = 512
    /// Uncompressed bytes per request at most.
    public var maxRequestBytes = 4 << 20
    /// Requests in flight at once.
    public var concurrency = 2
    /// Seconds a request may take, connection and answer included.
    public var requestTimeout: Double = 10
    public var retry = RetryPolicy()
    public var retention = RetentionPolicy()
    /// Seconds between looks at the report directory while shipping live.
    public var pollInterval: Double = 0.5
    /// `host.name` of the OTLP resource.
    public var hostName: String = OTLPLogMapper.localHostName()
    /// The loophunter version (OTLP scope version, User-Agent).
    public var version: String

    public init(endpoint: CollectorEndpoint, format: PayloadFormat, version: String) {
        self.endpoint = endpoint
        self.format = format
        self.version = version
    }
}

/// An OTLP `LogRecord` as the mapping builds it (nanosecond times since the epoch; the severity
/// as its `SeverityNumber` value). The OTLP/JSON encoding writes the times as decimal strings and
/// the severity as a number.
public struct OTLPLogRecord: Sendable, Equatable {
    public let timeUnixNano: UInt64
    public let observedTimeUnixNano: UInt64
    public let severityNumber: Int
    public let severityText: String
    public let body: OTLPAnyValue
    public let attributes: [OTLPKeyValue]
    public let eventName: String
}

/// An OTLP `LogRecord` in the OTLP/JSON encoding (lowerCamelCase names; nanosecond times as
/// decimal strings; the severity as its enum number).
public struct OTLPLogRecord: Encodable, Sendable, Equatable {
    public let timeUnixNano: String
    public let observedTimeUnixNano: String
    public let severityNumber: Int
    public let severityText: String
    public let body: OTLPAnyValue
    public let attributes: [OTLPKeyValue]
    public let eventName: String
}

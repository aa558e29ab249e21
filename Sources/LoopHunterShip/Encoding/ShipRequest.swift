import Foundation

/// One HTTP request to the collector and the reports it carries.
public struct ShipRequest: Sendable {
    /// The reports, in the order of the body.
    public let reports: [LoadedReport]
    /// The uncompressed body.
    public let body: Data
    /// Its `Content-Type` (OTLP protobuf: `application/x-protobuf`; else `application/json`).
    public let contentType: String
    /// Headers of this request besides the common ones (the JSON format's `Idempotency-Key`).
    public let headers: [(name: String, value: String)]

    public var entries: [SpoolEntry] { reports.map(\.entry) }
}

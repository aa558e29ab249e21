import Foundation
import LoopHunterReport

/// Turns claimed reports into requests of the chosen format under the size caps.
///
/// OTLP: each LogRecord is encoded once, measured, and joined with the others of its process
/// under one Resource, until `maxRecords` or `maxBytes` (of the uncompressed body) would be
/// passed. JSON: one request per report, its file's bytes unchanged. A report that alone passes
/// `maxBytes` is returned in `oversized`: it can never be sent, so it is set aside.
public struct RequestBuilder: Sendable {
    public let format: PayloadFormat
    public let mapper: OTLPLogMapper
    public let scope: OTLPScope
    public let maxRecords: Int
    public let maxBytes: Int

    public init(format: PayloadFormat, mapper: OTLPLogMapper, scope: OTLPScope, maxRecords: Int, maxBytes: Int) {
        self.format = format
        self.mapper = mapper
        self.scope = scope
        self.maxRecords = maxRecords
        self.maxBytes = maxBytes
    }

    /// The idempotency key header of the JSON format.
    public static let idempotencyHeader = "Idempotency-Key"

    public func build(_ reports: [LoadedReport], observedAt: UInt64 = Self.nowNanoseconds())
        -> (requests: [ShipRequest], oversized: [LoadedReport]) {
        switch format {
        case .json:
            var requests: [ShipRequest] = []
            var oversized: [LoadedReport] = []
            for report in reports {
                if report.data.count > maxBytes { oversized.append(report); continue }
                requests.append(ShipRequest(reports: [report], body: report.data,
                                            headers: [(Self.idempotencyHeader, report.report.id)]))
            }
            return (requests, oversized)
        case .otlp:
            return buildOTLP(reports, observedAt: observedAt)
        }
    }

    private func buildOTLP(_ reports: [LoadedReport], observedAt: UInt64) -> (requests: [ShipRequest], oversized: [LoadedReport]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let scopeJSON = (try? encoder.encode(scope)) ?? Data("{}".utf8)
        var resources: [String: Data] = [:]
        var requests: [ShipRequest] = []
        var oversized: [LoadedReport] = []

        // The request being filled: records grouped by resource, in first-seen order.
        var order: [String] = []
        var groups: [String: [Data]] = [:]
        var members: [LoadedReport] = []
        var size = Self.envelopeBytes

        func flush() {
            guard !members.isEmpty else { return }
            requests.append(ShipRequest(reports: members, body: assemble(order: order, groups: groups, resources: resources, scope: scopeJSON),
                                        headers: []))
            order = []
            groups = [:]
            members = []
            size = Self.envelopeBytes
        }

        for loaded in reports {
            let key = OTLPLogMapper.resourceKey(loaded.report)
            if resources[key] == nil {
                resources[key] = (try? encoder.encode(mapper.resource(for: loaded.report))) ?? Data("{}".utf8)
            }
            guard let record = try? encoder.encode(mapper.record(for: loaded.report, observedAt: observedAt)) else {
                oversized.append(loaded)
                continue
            }
            let groupCost = groups[key] == nil ? resources[key]!.count + scopeJSON.count + Self.groupBytes : 0
            let cost = record.count + 1 + groupCost
            if Self.envelopeBytes + cost > maxBytes {
                oversized.append(loaded)
                continue
            }
            if !members.isEmpty && (members.count >= maxRecords || size + cost > maxBytes) { flush() }
            let newGroupCost = groups[key] == nil ? resources[key]!.count + scopeJSON.count + Self.groupBytes : 0
            if groups[key] == nil { order.append(key); groups[key] = [] }
            groups[key]!.append(record)
            members.append(loaded)
            size += record.count + 1 + newGroupCost
        }
        flush()
        return (requests, oversized)
    }

    /// `{"resourceLogs":[` ... `]}`.
    private static let envelopeBytes = 20
    /// `{"resource":` `,"scopeLogs":[{"scope":` `,"logRecords":[` `]}]},`.
    private static let groupBytes = 60

    private func assemble(order: [String], groups: [String: [Data]], resources: [String: Data], scope: Data) -> Data {
        var body = Data("{\"resourceLogs\":[".utf8)
        for (i, key) in order.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: "{\"resource\":".utf8)
            body.append(resources[key]!)
            body.append(contentsOf: ",\"scopeLogs\":[{\"scope\":".utf8)
            body.append(scope)
            body.append(contentsOf: ",\"logRecords\":[".utf8)
            for (j, record) in groups[key]!.enumerated() {
                if j > 0 { body.append(UInt8(ascii: ",")) }
                body.append(record)
            }
            body.append(contentsOf: "]}]}".utf8)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    public static func nowNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

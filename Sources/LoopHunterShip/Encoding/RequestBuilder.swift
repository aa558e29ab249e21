import Foundation
import LoopHunterReport

/// Turns claimed reports into requests of the chosen format under the size caps.
///
/// OTLP: each report is mapped (``OTLPLogMapper``), turned into the generated messages
/// (``OTLPMessages``) and its LogRecord encoded once, in protobuf or JSON (``OTLPBodyEncoder``),
/// measured, and joined with the others of its process under one Resource, until `maxRecords` or
/// `maxBytes` (of the uncompressed body) would be passed. JSON: one request per report, its
/// file's bytes unchanged. A report that alone passes `maxBytes` is returned in `oversized`: it
/// can never be sent, so it is set aside.
public struct RequestBuilder: Sendable {
    public let format: PayloadFormat
    public let encoding: OTLPEncoding
    public let mapper: OTLPLogMapper
    public let scope: OTLPScope
    public let maxRecords: Int
    public let maxBytes: Int

    public init(format: PayloadFormat, encoding: OTLPEncoding = .protobuf, mapper: OTLPLogMapper, scope: OTLPScope,
                maxRecords: Int, maxBytes: Int) {
        self.format = format
        self.encoding = encoding
        self.mapper = mapper
        self.scope = scope
        self.maxRecords = maxRecords
        self.maxBytes = maxBytes
    }

    /// The idempotency key header of the JSON format.
    public static let idempotencyHeader = "Idempotency-Key"

    /// The `Content-Type` of this builder's requests.
    public var contentType: String {
        format == .otlp ? encoding.contentType : "application/json"
    }

    public func build(_ reports: [LoadedReport], observedAt: UInt64 = Self.nowNanoseconds())
        -> (requests: [ShipRequest], oversized: [LoadedReport]) {
        switch format {
        case .json:
            var requests: [ShipRequest] = []
            var oversized: [LoadedReport] = []
            for report in reports {
                if report.data.count > maxBytes { oversized.append(report); continue }
                requests.append(ShipRequest(reports: [report], body: report.data, contentType: contentType,
                                            headers: [(Self.idempotencyHeader, report.report.id)]))
            }
            return (requests, oversized)
        case .otlp:
            return buildOTLP(reports, observedAt: observedAt)
        }
    }

    private func buildOTLP(_ reports: [LoadedReport], observedAt: UInt64) -> (requests: [ShipRequest], oversized: [LoadedReport]) {
        let encoder = OTLPBodyEncoder(encoding)
        let scopeBytes = (try? encoder.encode(OTLPMessages.scope(scope))) ?? Data()
        var resources: [String: Data] = [:]
        var requests: [ShipRequest] = []
        var oversized: [LoadedReport] = []

        // The request being filled: records grouped by resource, in first-seen order.
        var order: [String] = []
        var groups: [String: [Data]] = [:]
        var members: [LoadedReport] = []
        var size = encoder.envelopeBytes

        func flush() {
            guard !members.isEmpty else { return }
            let body = encoder.assemble(order.map { (resources[$0]!, groups[$0]!) }, scope: scopeBytes)
            requests.append(ShipRequest(reports: members, body: body, contentType: contentType, headers: []))
            order = []
            groups = [:]
            members = []
            size = encoder.envelopeBytes
        }

        for loaded in reports {
            let key = OTLPLogMapper.resourceKey(loaded.report)
            if resources[key] == nil {
                resources[key] = (try? encoder.encode(OTLPMessages.resource(mapper.resource(for: loaded.report)))) ?? Data()
            }
            guard let record = try? encoder.record(mapper.record(for: loaded.report, observedAt: observedAt)) else {
                oversized.append(loaded)
                continue
            }
            let groupCost = encoder.groupCost(resource: resources[key]!.count, scope: scopeBytes.count)
            if encoder.envelopeBytes + groupCost + encoder.recordCost(record.count) > maxBytes {
                oversized.append(loaded)
                continue
            }
            var cost = encoder.recordCost(record.count) + (groups[key] == nil ? groupCost : 0)
            if !members.isEmpty && (members.count >= maxRecords || size + cost > maxBytes) {
                flush()
                cost = encoder.recordCost(record.count) + groupCost
            }
            if groups[key] == nil { order.append(key); groups[key] = [] }
            groups[key]!.append(record)
            members.append(loaded)
            size += cost
        }
        flush()
        return (requests, oversized)
    }

    public static func nowNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

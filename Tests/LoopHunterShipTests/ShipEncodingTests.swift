import Foundation
import LoopHunterReport
@testable import LoopHunterShip
import SwiftProtobuf
import Testing
import LoopHunterTestSupport

/// The OTLP bodies in both encodings, checked against the messages generated from the official
/// .proto files: what the shipper joins from separately encoded pieces decodes to exactly the
/// ExportLogsServiceRequest built whole from the mapping.
@Suite("ship: OTLP encodings")
struct ShipEncodingTests {
    typealias Request = Opentelemetry_Proto_Collector_Logs_V1_ExportLogsServiceRequest

    /// Every fixture report (the Tests/Fixtures ones, the causes), each loaded as the shipper loads it.
    static func fixtureReports() throws -> [LoadedReport] {
        var urls = try FileManager.default.contentsOfDirectory(at: Fixtures.reports, includingPropertiesForKeys: nil)
        urls += try FileManager.default.contentsOfDirectory(at: CauseFixtures.directory, includingPropertiesForKeys: nil)
        var loaded: [LoadedReport] = []
        for url in urls.sorted(by: { $0.path < $1.path }) where url.lastPathComponent.hasPrefix("report-") {
            let entry = SpoolEntry(name: url.lastPathComponent, path: url.path, bytes: 0)
            loaded.append(try ReportLoader.load(entry, shownAs: url.path))
        }
        return loaded
    }

    /// The request as one generated message: records grouped by process in first-seen order.
    static func expected(_ reports: [LoadedReport], mapper: OTLPLogMapper, scope: OTLPScope, observedAt: UInt64) -> Request {
        var request = Request()
        var index: [String: Int] = [:]
        for loaded in reports {
            let key = OTLPLogMapper.resourceKey(loaded.report)
            if index[key] == nil {
                index[key] = request.resourceLogs.count
                var resourceLogs = Opentelemetry_Proto_Logs_V1_ResourceLogs()
                resourceLogs.resource = OTLPMessages.resource(mapper.resource(for: loaded.report))
                var scopeLogs = Opentelemetry_Proto_Logs_V1_ScopeLogs()
                scopeLogs.scope = OTLPMessages.scope(scope)
                resourceLogs.scopeLogs = [scopeLogs]
                request.resourceLogs.append(resourceLogs)
            }
            request.resourceLogs[index[key]!].scopeLogs[0].logRecords.append(
                OTLPMessages.record(mapper.record(for: loaded.report, observedAt: observedAt)))
        }
        return request
    }

    static func decode(_ body: Data, _ encoding: OTLPEncoding) throws -> Request {
        switch encoding {
        case .protobuf: return try Request(serializedBytes: body)
        case .json: return try Request(jsonUTF8Data: body)
        }
    }

    @Test("each encoding's body decodes to exactly the request built whole from the mapping", arguments: OTLPEncoding.allCases)
    func bodiesMatchTheMessages(encoding: OTLPEncoding) throws {
        let reports = try Self.fixtureReports()
        try #require(reports.count >= 8)
        let mapper = OTLPLogMapper(hostName: "test-host")
        let scope = OTLPScope(name: "loophunter", version: "9.9.9")
        // Twice over, so that processes repeat and share a resource.
        let all = reports + reports
        let builder = RequestBuilder(format: .otlp, encoding: encoding, mapper: mapper, scope: scope, maxRecords: 512, maxBytes: 4 << 20)
        let built = builder.build(all, observedAt: 1_800_000_000_000_000_000)
        #expect(built.oversized.isEmpty)
        try #require(built.requests.count == 1)
        let request = built.requests[0]
        #expect(request.contentType == encoding.contentType)
        let decoded = try Self.decode(request.body, encoding)
        #expect(decoded == Self.expected(all, mapper: mapper, scope: scope, observedAt: 1_800_000_000_000_000_000))
        #expect(decoded.resourceLogs.count == Set(all.map { OTLPLogMapper.resourceKey($0.report) }).count)
        if encoding == .json {
            // OTLP/JSON's own rules on top of proto3 JSON: 64-bit integers as strings, enums as numbers.
            let text = String(decoding: request.body, as: UTF8.self)
            for fragment in [#""intValue":"101""#, #""severityNumber":13"#, #""timeUnixNano":"1795240537000000000""#,
                             #""boolValue":false"#, #""resourceLogs":[{"resource":{"attributes":["#] {
                #expect(text.contains(fragment), "\(fragment) in \(text.prefix(300))")
            }
            #expect(!text.contains("SEVERITY_NUMBER"), "enums as numbers")
        }
    }

    @Test("batches split under the byte cap in both encodings: every report once, in order, no body over the cap",
          arguments: OTLPEncoding.allCases)
    func byteCap(encoding: OTLPEncoding) throws {
        let reports = try Self.fixtureReports()
        let all = Array(repeating: reports, count: 6).flatMap { $0 }
        let mapper = OTLPLogMapper(hostName: "h")
        let scope = OTLPScope(name: "loophunter", version: "1")
        let cap = encoding == .protobuf ? 12_000 : 40_000
        let builder = RequestBuilder(format: .otlp, encoding: encoding, mapper: mapper, scope: scope, maxRecords: 512, maxBytes: cap)
        let built = builder.build(all, observedAt: 1)
        #expect(built.oversized.isEmpty)
        #expect(built.requests.count > 3, "the cap splits: \(built.requests.count) requests")
        for request in built.requests {
            #expect(request.body.count <= cap, "\(request.body.count) bytes over the \(cap)-byte cap")
            #expect(try Self.decode(request.body, encoding) == Self.expected(request.reports, mapper: mapper, scope: scope, observedAt: 1))
        }
        #expect(built.requests.flatMap { $0.reports.map(\.entry.path) } == all.map(\.entry.path))
        // A cap below one record: that report is set aside, never sent.
        let tiny = RequestBuilder(format: .otlp, encoding: encoding, mapper: mapper, scope: scope, maxRecords: 512, maxBytes: 300)
        #expect(tiny.build(reports, observedAt: 1).oversized.count == reports.count)
    }

    @Test("a collector's answers in protobuf: partial success, a google.rpc.Status message, 415")
    func protobufAnswers() throws {
        let policy = RetryPolicy()
        var response = Opentelemetry_Proto_Collector_Logs_V1_ExportLogsServiceResponse()
        response.partialSuccess.rejectedLogRecords = 2
        response.partialSuccess.errorMessage = "too old"
        let protobuf: Data = try response.serializedBytes()
        let headers = ["content-type": "application/x-protobuf"]
        #expect(policy.verdict(for: .response(status: 200, headers: headers, body: protobuf), gzipped: true, format: .otlp)
                == .delivered(partiallyRejected: 2, message: "too old"))
        // An empty response (what a collector answers on full success) is not a partial success.
        #expect(policy.verdict(for: .response(status: 200, headers: headers, body: Data()), gzipped: true, format: .otlp)
                == .delivered(partiallyRejected: 0, message: nil))
        // JSON answers still read, whatever the request's encoding.
        let json = Data(#"{"partialSuccess":{"rejectedLogRecords":"3"}}"#.utf8)
        #expect(OTLPPartialSuccess.of(json, contentType: "application/json", requestEncoding: .protobuf)
                == OTLPPartialSuccess(rejectedLogRecords: 3, errorMessage: nil))
        // google.rpc.Status{code: 3, message: "record 7: bad attribute"}: the message is what a person reads.
        let message = Array("record 7: bad attribute".utf8)
        let status = Data([0x08, 0x03, 0x12, UInt8(message.count)] + message)
        guard case .refused(let reason) = policy.verdict(for: .response(status: 400, headers: headers, body: status), gzipped: false,
                                                          format: .otlp) else { Issue.record("400 refuses"); return }
        #expect(reason.hasSuffix("400 Bad Request: record 7: bad attribute"), "\(reason)")
        #expect(RPCStatusMessage.message(in: Data([0x08, 0x03])) == nil, "no message field")
        #expect(RPCStatusMessage.message(in: Data([0x12, 0x7f, 0x41])) == nil, "a length past the end")
        // A collector that does not take protobuf says 415: the advice names the other encoding.
        guard case .collectorUnusable(let advice) = policy.verdict(for: .response(status: 415, headers: [:], body: Data()),
                                                                   gzipped: false, format: .otlp, encoding: .protobuf) else {
            Issue.record("415 stops"); return
        }
        #expect(advice.contains("--otlp-encoding json"), "\(advice)")
    }
}

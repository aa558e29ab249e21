import Foundation
import LoopHunterReport
import LoopHunterShip
import Testing
import LoopHunterTestSupport

/// The pure parts of shipping: the retry rules, Retry-After, backoff, the OTLP mapping.
@Suite("ship: policy and encoding")
struct ShipPolicyTests {
    let policy = RetryPolicy()

    func verdict(_ status: Int, headers: [String: String] = [:], body: String = "", gzipped: Bool = false) -> DeliveryVerdict {
        policy.verdict(for: .response(status: status, headers: headers, body: Data(body.utf8)), gzipped: gzipped, format: .otlp,
                       now: Date(timeIntervalSince1970: 1_000_000))
    }

    @Test("only connection errors, timeouts, 429, 502, 503, 504 are retried; 400 refuses; 500 is held; 401 stops")
    func verdicts() {
        #expect(verdict(200) == .delivered(partiallyRejected: 0, message: nil))
        for status in [429, 502, 503, 504] {
            guard case .retry = verdict(status) else { Issue.record("\(status) is retried"); continue }
        }
        for status in [400, 413, 422] {
            guard case .refused = verdict(status) else { Issue.record("\(status) refuses the reports"); continue }
        }
        for status in [500, 501, 505] {
            guard case .held = verdict(status) else { Issue.record("\(status) is held, not retried"); continue }
        }
        for status in [401, 403, 404, 405, 408, 409, 410, 302] {
            guard case .collectorUnusable = verdict(status) else { Issue.record("\(status) stops"); continue }
        }
        #expect(verdict(415, gzipped: true) == .compressionRefused)
        guard case .collectorUnusable = verdict(415, gzipped: false) else { Issue.record("415 without gzip stops"); return }
        guard case .retry(nil, _) = policy.verdict(for: .failed(.connection("x: connection refused")), gzipped: false, format: .otlp),
              case .retry(nil, _) = policy.verdict(for: .failed(.timeout("x")), gzipped: false, format: .otlp),
              case .collectorUnusable = policy.verdict(for: .failed(.tls("bad certificate")), gzipped: false, format: .otlp)
        else { Issue.record("transport failures"); return }
        #expect(verdict(200, body: #"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"too old"}}"#)
                == .delivered(partiallyRejected: 2, message: "too old"))
    }

    @Test("Retry-After: delay-seconds and the three HTTP-date forms")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 784_111_770) // Sun, 06 Nov 1994 08:49:30 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 7)
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 7)
        #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 7)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:00 GMT", now: now) == 0, "a date in the past: no wait")
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds("-5", now: now) == nil)
        guard case .retry(let after?, _) = verdict(429, headers: ["retry-after": "3"]), after == 3 else {
            Issue.record("429's Retry-After is honoured"); return
        }
        guard case .retry(let date?, _) = verdict(503, headers: ["retry-after": "Mon, 12 Jan 1970 13:46:50 GMT"]), date == 10 else {
            Issue.record("503's HTTP-date is honoured"); return
        }
    }

    @Test("backoff: exponential, jittered within ±50%, capped")
    func backoff() {
        var generator = SystemRandomNumberGenerator()
        for attempt in 1...12 {
            let base = min(30, pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = policy.backoff(attempt: attempt, using: &generator)
                #expect(delay >= base * 0.5 && delay <= min(30, base * 1.5), "attempt \(attempt): \(delay)")
            }
        }
    }

    @Test("OTLP mapping: severity, one-line body, attributes, resource, nanosecond times")
    func mapping() throws {
        let url = Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json")
        guard case .report(let report) = try ReportFile.load(url) else { Issue.record("not a report"); return }
        let mapper = OTLPLogMapper(hostName: "test-host")
        let record = mapper.record(for: report, observedAt: 1_800_000_000_000_000_000)
        #expect(record.timeUnixNano == 1_795_240_537_000_000_000)
        #expect(record.observedTimeUnixNano == 1_800_000_000_000_000_000)
        #expect(record.severityNumber == 13 && record.severityText == "WARN")
        #expect(record.eventName == "loophunter.layout-storm")
        #expect(record.body == .string("layout-storm: StatusLabel 'status' 101 layouts in one iteration (threshold 100) at "
                                       + "TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status' in toykit-demo[4101]"))
        let attributes = Dictionary(uniqueKeysWithValues: record.attributes.map { ($0.key, $0.value) })
        #expect(attributes["log.record.uid"] == .string("aaaa000100000001-4101-1"))
        #expect(attributes["loophunter.kind"] == .string("layout-storm"))
        #expect(attributes["loophunter.hook"] == .string("tk_view_layout"))
        #expect(attributes["loophunter.object.type"] == .string("StatusLabel"))
        #expect(attributes["loophunter.object.name"] == .string("status"))
        #expect(attributes["loophunter.count"] == .int(101) && attributes["loophunter.threshold"] == .int(100))
        #expect(attributes["loophunter.fingerprint"] == .string("fbd250c4f22ee373"))
        #expect(attributes["thread.id"] == .int(4101) && attributes["thread.name"] == .string("toykit-demo"))
        #expect(attributes["process.pid"] == .int(4101))
        guard case .array(let frames) = attributes["loophunter.frames"] else { Issue.record("frames are an array"); return }
        #expect(frames.count == report.frames.count)
        let resource = Dictionary(uniqueKeysWithValues: mapper.resource(for: report).attributes.map { ($0.key, $0.value) })
        #expect(resource["service.name"] == .string("toykit-demo"))
        #expect(resource["host.name"] == .string("test-host"))
        #expect(resource["process.pid"] == .int(4101))
    }

    @Test("OTLP mapping of a layout cause: kind, entry, widget, the request's stack and the callback chain")
    func causeMapping() throws {
        let report = try CauseFixtures.report(CauseFixtures.deferredFile)
        let cause = try #require(report.cause)
        let record = OTLPLogMapper(hostName: "test-host").record(for: report, observedAt: 1_800_000_000_000_000_000)
        let attributes = Dictionary(uniqueKeysWithValues: record.attributes.map { ($0.key, $0.value) })
        #expect(attributes["loophunter.cause.kind"] == .string("deferred"))
        #expect(attributes["loophunter.cause.entry"] == .string("gtk_widget_queue_resize"))
        #expect(attributes["loophunter.cause.chain_truncated"] == .bool(false))
        guard case .keyValues(let widget) = attributes["loophunter.cause.widget"] else { Issue.record("the widget is a map"); return }
        #expect(widget.contains(OTLPKeyValue("name", .string("right"))))
        #expect(widget.contains(OTLPKeyValue("path", .string("LhWindow 'main-window' > LhBox 'toolbar' > LhLabel 'right'"))))
        guard case .array(let request) = attributes["loophunter.cause.request_frames"] else { Issue.record("request frames"); return }
        #expect(request.count == cause.requestStack.count)
        guard case .array(let chain) = attributes["loophunter.cause.added_by"], case .keyValues(let link)? = chain.first else {
            Issue.record("the chain is an array of maps"); return
        }
        #expect(chain.count == 1 && link.contains(OTLPKeyValue("added_with", .string("g_idle_add"))))
        let callback = link.first { $0.key == "callback" }?.value
        guard case .keyValues(let callbackFields)? = callback else { Issue.record("the callback is a frame map"); return }
        #expect(callbackFields.contains(OTLPKeyValue("symbol", .string("ping_pong_idle"))))
        guard case .array(let added)? = link.first(where: { $0.key == "frames" })?.value else { Issue.record("added frames"); return }
        #expect(added.count == cause.addedBy[0].stack.count)
        #expect(attributes["loophunter.cause.script"] == nil, "a C program's request has no script stack")
        // A script's request: `loophunter.cause.script` with the language and the frames.
        let script = #"{"language":"python","frames":[{"function":"ping_idle","file":"/src/app/ping.py","line":36}]}"#
        let data = try Data(contentsOf: CauseFixtures.directory.appendingPathComponent(CauseFixtures.deferredFile))
        let edited = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""request_stack":"#, with: #""request_script":\#(script),"request_stack":"#)
        guard case .report(let python) = try ReportFile.decode(Data(edited.utf8), path: "python.json") else { Issue.record("not a report"); return }
        let pythonAttributes = OTLPLogMapper(hostName: "h").record(for: python, observedAt: 1).attributes
        guard case .keyValues(let fields)? = pythonAttributes.first(where: { $0.key == "loophunter.cause.script" })?.value,
              case .array(let scriptFrames)? = fields.first(where: { $0.key == "frames" })?.value,
              case .keyValues(let first)? = scriptFrames.first else { Issue.record("the script is a map with frames: \(edited.prefix(200))"); return }
        #expect(fields.contains(OTLPKeyValue("language", .string("python"))))
        #expect(first == [OTLPKeyValue("function", .string("ping_idle")), OTLPKeyValue("file", .string("/src/app/ping.py")),
                          OTLPKeyValue("line", .int(36))])
        // A report without a cause has none of these attributes.
        let old = try ReportFile.load(Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json"))
        guard case .report(let storm) = old else { Issue.record("not a report"); return }
        let plain = OTLPLogMapper(hostName: "h").record(for: storm, observedAt: 1).attributes
        #expect(!plain.contains { $0.key.hasPrefix("loophunter.cause.") })
    }
}

import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// `loophunter ship` and `run --ship` against a real OTLP decoder and a JSON endpoint.
@Suite("ship: delivery")
struct ShipDeliveryTests {
    @Test("otlp: a real run's report and fixture copies reach the OTLP decoder batched, gzipped, each once, in either encoding; the spool is owner-only",
          arguments: ["protobuf", "json"])
    func otlpDelivery(encoding: String) throws {
        try Native.ensureBuilt()
        var reports = try ShipReports("otlp-\(encoding)")
        defer { reports.remove() }
        // A real report from the preload, next to 40 fixture copies.
        let preload = HostRun.underPreload([Native.demo, "loop"], dir: reports.path)
        #expect(preload.status == 0, "\(preload.stderr)")
        let real = try ReportDirectory.reportIds(in: reports.path)
        try #require(!real.isEmpty, "the preload wrote no report")
        try reports.add(40)
        // And a layout-loop with a deferred cause (nested maps and arrays in its attributes).
        let cause = try CauseFixtures.report(CauseFixtures.deferredFile)
        reports.plant(CauseFixtures.deferredFile,
                      try Data(contentsOf: CauseFixtures.directory.appendingPathComponent(CauseFixtures.deferredFile)))
        let expected = Set(real + reports.ids + [cause.id])
        let originals = Dictionary(uniqueKeysWithValues: reports.reportNames.map {
            ($0, FileManager.default.contents(atPath: reports.path + "/" + $0))
        })

        let collector = try ShipCollector()
        defer { collector.stop() }
        let run = HostRun.ship([reports.path, "--to", collector.url, "--format", "otlp", "--otlp-encoding", encoding, "--batch-size", "8"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\(expected.count) sent, 0 rejected, 0 still pending"), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("shipped to \(collector.url)/v1/logs:"), "the URL without a path gets /v1/logs: \(run.stdout)")

        #expect(collector.malformed().isEmpty, "\(collector.malformed())")
        #expect(collector.errors.isEmpty, "\(collector.errors)")
        let accepted = collector.acceptedCounts()
        #expect(Set(accepted.keys) == expected)
        #expect(accepted.values.allSatisfy { $0 == 1 }, "no report twice: \(accepted.filter { $0.value > 1 })")
        let entries = collector.entries()
        #expect(entries.count == (expected.count + 7) / 8, "batches of 8: \(entries.count) requests")
        #expect(entries.allSatisfy { $0.gzip }, "OTLP bodies are gzipped")
        #expect(entries.allSatisfy { $0.encoding == encoding }, "Content-Type of \(encoding): \(entries.map(\.encoding))")

        // The spool: everything in sent/, nothing left; the preload's files untouched; owner-only.
        #expect(reports.names(in: "sent").count == expected.count)
        #expect(reports.names(in: "pending").isEmpty && reports.names(in: "in-flight").isEmpty && reports.names(in: "rejected").isEmpty)
        for (name, data) in originals {
            #expect(FileManager.default.contents(atPath: reports.path + "/" + name) == data, "\(name) unchanged")
        }
        for directory in ["", "/pending", "/in-flight", "/sent", "/rejected"] {
            #expect(FilePermissions.mode(reports.spool + directory) == 0o700, "\(directory) is 0700")
        }
        for name in reports.names(in: "sent") {
            #expect(FilePermissions.mode(reports.spool + "/sent/" + name) & 0o077 == 0, "\(name) is owner-only")
        }

        // A second run has nothing to send; a new report is sent alone.
        let again = HostRun.ship([reports.path, "--to", collector.url, "--otlp-encoding", encoding])
        #expect(again.status == 0 && again.stdout.contains("0 sent, 0 rejected, 0 still pending"), "\(again.stdout)")
        let new = try reports.add(1)
        let third = HostRun.ship([reports.path, "--to", collector.url, "--otlp-encoding", encoding])
        #expect(third.status == 0 && third.stdout.contains("1 sent"), "\(third.stdout)")
        #expect(collector.acceptedCounts()[new[0]] == 1)
        #expect(collector.entries().count == entries.count + 1)
    }

    @Test("protobuf and JSON deliver the same records: every report once, with the same attributes, resource and scope as decoded by opentelemetry-proto")
    func encodingsAgree() throws {
        try Native.ensureBuilt()
        var reports = try ShipReports("encodings")
        defer { reports.remove() }
        let preload = HostRun.underPreload([Native.demo, "loop"], dir: reports.path)
        #expect(preload.status == 0, "\(preload.stderr)")
        try reports.add(30)
        reports.plant(CauseFixtures.deferredFile,
                      try Data(contentsOf: CauseFixtures.directory.appendingPathComponent(CauseFixtures.deferredFile)))
        let expected = Set(try ReportDirectory.reportIds(in: reports.path))
        // The same files in a second directory (hard links: the same bytes), one per encoding.
        let twin = try ShipReports("encodings-twin")
        defer { twin.remove() }
        for name in reports.reportNames {
            try FileManager.default.linkItem(atPath: reports.path + "/" + name, toPath: twin.path + "/" + name)
        }

        var delivered: [String: [String: String]] = [:]
        for (encoding, directory) in [("protobuf", reports.path), ("json", twin.path)] {
            let collector = try ShipCollector(mode: "otlp", ["--keep-records"])
            defer { collector.stop() }
            let run = HostRun.ship([directory, "--to", collector.url, "--otlp-encoding", encoding, "--batch-size", "7"])
            #expect(run.status == 0, "\(encoding): \(run.stdout)\(run.stderr)")
            #expect(collector.malformed().isEmpty, "\(encoding): \(collector.malformed())")
            #expect(collector.entries().allSatisfy { $0.encoding == encoding })
            let records = collector.decodedRecords()
            #expect(records.count == expected.count, "\(encoding): each report once (\(records.count) records for \(expected.count) reports)")
            delivered[encoding] = Dictionary(records.map { ($0.uid, $0.record) }, uniquingKeysWith: { first, _ in first })
            #expect(Set(delivered[encoding]!.keys) == expected, "\(encoding): every report")
        }
        let protobuf = try #require(delivered["protobuf"]), json = try #require(delivered["json"])
        for (uid, record) in protobuf {
            #expect(json[uid] == record, "\(uid): the same record in both encodings:\nprotobuf \(record.prefix(600))\njson     \(json[uid]?.prefix(600) ?? "none")")
        }
        // The decoded attributes are the mapping's: a few that every record carries, by value.
        let cause = try CauseFixtures.report(CauseFixtures.deferredFile)
        let causeRecord = try #require(protobuf[cause.id])
        for fragment in [#""key":"loophunter.cause.kind","value":{"stringValue":"deferred"}"#,
                         #""key":"loophunter.frames_truncated","value":{"boolValue":false}"#,
                         #""key":"log.record.uid","value":{"stringValue":"\#(cause.id)"}"#] {
            #expect(causeRecord.contains(fragment), "\(fragment) in \(causeRecord.prefix(400))")
        }
    }

    @Test("json: one request per report, Idempotency-Key = the report's id, the file's JSON unchanged; gzip once the endpoint says it takes it")
    func jsonDelivery() throws {
        var reports = try ShipReports("json")
        defer { reports.remove() }
        try reports.add(12)
        let collector = try ShipCollector(mode: "json", ["--accept-encoding", "gzip, identity"])
        defer { collector.stop() }
        let run = HostRun.ship([reports.path, "--to", collector.url + "/api/reports", "--format", "json", "--concurrency", "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("12 sent, 0 rejected, 0 still pending (12 requests)"), "\(run.stdout)")
        #expect(collector.malformed().isEmpty, "the header is the body's id: \(collector.malformed())")
        #expect(collector.acceptedCounts() == Dictionary(uniqueKeysWithValues: reports.ids.map { ($0, 1) }))
        let entries = collector.entries()
        #expect(entries.first?.gzip == false, "JSON starts uncompressed")
        #expect(entries.dropFirst().allSatisfy { $0.gzip }, "then gzip, as the endpoint's Accept-Encoding says")
        #expect(run.stderr.contains("the collector takes gzip"))
    }

    @Test("a collector that refuses gzip (415) gets the same body uncompressed, and no gzip after")
    func gzipFallback() throws {
        var reports = try ShipReports("nogzip")
        defer { reports.remove() }
        try reports.add(10)
        let collector = try ShipCollector(mode: "otlp", ["--no-gzip"])
        defer { collector.stop() }
        let run = HostRun.ship([reports.path, "--to", collector.url, "--batch-size", "5", "--concurrency", "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let entries = collector.entries()
        #expect(entries.map(\.status) == [415, 200, 200])
        #expect(entries.map(\.gzip) == [true, false, false])
        #expect(Set(collector.acceptedCounts().keys) == Set(reports.ids))
    }

    @Test("run --ship: a report is shipped while the program still runs, and the rest when it ends")
    func runShip() throws {
        try Native.ensureBuilt()
        let collector = try ShipCollector()
        defer { collector.stop() }
        let directory = ReportDirectory("run-ship")
        defer { directory.remove() }
        let staging = try ShipReports("run-ship-staging")
        defer { staging.remove() }
        let (name, id, data) = ShipReports.makeReport(1)
        _ = FileManager.default.createFile(atPath: staging.path + "/" + name, contents: data, attributes: [.posixPermissions: 0o600])
        // The program drops a report into its report directory, then waits until the collector has
        // it: it exits 0 only if the report was shipped while it was still running. Then the
        // toykit loop writes reports at exit time for the drain.
        let script = """
            mv '\(staging.path)/\(name)' "$LOOPHUNTER_DIR/" || exit 9
            i=0
            until grep -q '\(id)' '\(collector.logPath)'; do
              i=$((i+1)); [ $i -gt 600 ] && exit 1
              sleep 0.05
            done
            exec '\(Native.demo)' loop
            """
        let run = HostRun.run([Native.cli, "run", "--dir", directory.path, "--ship", collector.url, "--color", "never",
                               "--", "/bin/sh", "-c", script], timeout: 120)
        #expect(run.status == 0, "the report reached the collector while the program ran: \(run.stderr)")
        #expect(collector.entries().allSatisfy { $0.encoding == "protobuf" }, "OTLP's default encoding")
        let written = try ReportDirectory.reportIds(in: directory.path)
        #expect(written.count >= 2, "the demo's loop report and the dropped one")
        #expect(run.stderr.contains("shipped to \(collector.url)/v1/logs: \(written.count) sent, 0 rejected, 0 still pending"), "\(run.stderr)")
        #expect(Set(collector.acceptedCounts().keys) == Set(written))
        #expect(collector.malformed().isEmpty)
        #expect(run.stderr.contains("StatusLabel"), "the findings are still printed: \(run.stderr)")
    }
}

import Foundation
import Testing
import LoopHunterTestSupport

/// Bounded storage: the caps on sent and rejected reports, oldest removed first.
@Suite("ship: retention")
struct ShipRetentionTests {
    @Test("count, bytes and age caps: the oldest sent reports are removed, from the spool and the report directory")
    func caps() throws {
        var reports = try ShipReports("caps")
        defer { reports.remove() }
        let collector = try ShipCollector()
        defer { collector.stop() }
        let first = try reports.add(6)
        let run1 = HostRun.ship([reports.path, "--to", collector.url])
        #expect(run1.status == 0, "\(run1.stdout)\(run1.stderr)")
        // The first six are older: the change time, set by the rename into sent/, is the age.
        let second = try reports.add(4)
        let run2 = HostRun.ship([reports.path, "--to", collector.url, "--keep-sent", "5"])
        #expect(run2.status == 0, "\(run2.stdout)\(run2.stderr)")
        let sent = reports.names(in: "sent")
        #expect(sent.count == 5, "\(sent)")
        let kept = try Set(sent.map { try Self.id(reports.spool + "/sent/" + $0) })
        #expect(kept.isSuperset(of: second), "the newest stay")
        #expect(kept.intersection(first).count == 1, "the oldest go first")
        #expect(reports.reportNames.count == 5, "an evicted report leaves the report directory too, so it is never taken in again")

        let run3 = HostRun.ship([reports.path, "--to", collector.url, "--keep-sent-mib", "0"])
        #expect(run3.status == 0 && run3.stdout.contains("0 sent"), "\(run3.stdout)")
        #expect(reports.names(in: "sent").isEmpty && reports.reportNames.isEmpty, "the byte cap removes them all")

        try reports.add(2)
        let run4 = HostRun.ship([reports.path, "--to", collector.url, "--keep-days", "0"])
        #expect(run4.status == 0 && run4.stdout.contains("2 sent"), "\(run4.stdout)")
        #expect(reports.names(in: "sent").isEmpty, "the age cap: older than 0 days")
        #expect(collector.acceptedCounts().values.allSatisfy { $0 == 1 }, "nothing evicted was sent twice")
    }

    static func id(_ path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["id"] as? String ?? ""
    }
}

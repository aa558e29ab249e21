import Foundation
import Testing
import LoopHunterTestSupport

/// Bad inputs to `loophunter ship`: each named in a message that says what to do, with the
/// documented exit status, and nothing sent or lost.
@Suite("ship: bad input")
struct ShipInputTests {
    @Test("an unreachable collector: retried, then the reports stay pending, with the address and what to do")
    func unreachable() throws {
        var reports = try ShipReports("unreachable")
        defer { reports.remove() }
        try reports.add(3)
        // A port nothing listens on: bind one, note it, close it.
        let port = try Self.closedPort()
        let run = HostRun.ship([reports.path, "--to", "http://127.0.0.1:\(port)", "--retry-for", "2"])
        #expect(run.status == 75, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("3 still pending: cannot reach the collector (127.0.0.1:\(port): connection refused)"), "\(run.stdout)")
        #expect(run.stdout.contains("is it running, and is the URL right?") && run.stdout.contains("the next loophunter ship sends them"))
        #expect(reports.names(in: "pending").count == 3 && reports.names(in: "in-flight").isEmpty)
    }

    @Test("a wrong scheme, no scheme, credentials in the URL: refused before anything is sent (64)")
    func badURLs() throws {
        var reports = try ShipReports("urls")
        defer { reports.remove() }
        try reports.add(1)
        let cases = [
            ("ftp://collector:4318", "the scheme ftp:// is not supported; use http:// or https://"),
            ("collector:4318", "--to collector:4318: no scheme; write it as http://collector:4318"),
            ("http://user:secret@collector:4318", "credentials in the URL are refused"),
            ("http://", "no host"),
        ]
        for (url, message) in cases {
            let run = HostRun.ship([reports.path, "--to", url])
            #expect(run.status == 64, "\(url): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(url): \(run.stderr)")
            #expect(!run.stderr.contains("secret"), "a password in a URL is never echoed")
        }
        #expect(reports.names(in: "sent").isEmpty)
    }

    @Test("--otlp-encoding: a value other than protobuf or json, or with the json format, is refused before anything is sent (64)")
    func badEncoding() throws {
        var reports = try ShipReports("encoding")
        defer { reports.remove() }
        try reports.add(1)
        let unknown = HostRun.ship([reports.path, "--to", "http://127.0.0.1:4318", "--otlp-encoding", "xml"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("xml") && unknown.stderr.contains("'protobuf'") && unknown.stderr.contains("'json'"), "\(unknown.stderr)")
        let mixed = HostRun.ship([reports.path, "--to", "http://127.0.0.1:4318", "--format", "json", "--otlp-encoding", "protobuf"])
        #expect(mixed.status == 64, "\(mixed.stderr)")
        #expect(mixed.stderr.contains("--otlp-encoding protobuf applies to the OTLP format"), "\(mixed.stderr)")
        let run = HostRun.run([Native.cli, "run", "--otlp-encoding", "json", "--", "/bin/true"])
        #expect(run.status == 64 && run.stderr.contains("--otlp-encoding go with --ship URL"), "\(run.stderr)")
        #expect(reports.names(in: "sent").isEmpty)
    }

    @Test("a missing token file, an unset token variable: named, with how to fix it (64)")
    func badTokens() throws {
        var reports = try ShipReports("tokens")
        defer { reports.remove() }
        try reports.add(1)
        let missing = HostRun.ship([reports.path, "--to", "http://127.0.0.1:4318", "--token-file", "/nonexistent/lh-token"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--token-file /nonexistent/lh-token: no such file; write the collector's token into it"), "\(missing.stderr)")
        let unset = HostRun.ship([reports.path, "--to", "http://127.0.0.1:4318", "--token-env", "LH_TEST_UNSET_TOKEN"],
                                           environment: ["LH_TEST_UNSET_TOKEN": nil])
        #expect(unset.status == 64)
        #expect(unset.stderr.contains("--token-env LH_TEST_UNSET_TOKEN: the variable is not set; export LH_TEST_UNSET_TOKEN"), "\(unset.stderr)")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lh-empty-token-\(UUID().uuidString.prefix(6))").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data("\n".utf8), attributes: [.posixPermissions: 0o600])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let blank = HostRun.ship([reports.path, "--to", "http://127.0.0.1:4318", "--token-file", empty])
        #expect(blank.status == 64 && blank.stderr.contains("is empty"), "\(blank.stderr)")
    }

    @Test("a report directory that is missing, a file, world-writable or another user's: refused (2), nothing shipped")
    func badDirectories() throws {
        let collector = try ShipCollector()
        defer { collector.stop() }
        let missing = HostRun.ship(["/nonexistent/lh-reports", "--to", collector.url])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/lh-reports: no such directory"), "\(missing.stderr)")

        var open = try ShipReports("world-writable")
        defer { open.remove() }
        try open.add(2)
        chmod(open.path, 0o777)
        let writable = HostRun.ship([open.path, "--to", collector.url])
        #expect(writable.status == 2, "\(writable.stderr)")
        #expect(writable.stderr.contains("\(open.path) is writable by other users (mode 777)") && writable.stderr.contains("chmod 700 \(open.path)"),
                "\(writable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: open.spool), "no spool is made in a refused directory")

        if geteuid() == 0 {
            var foreign = try ShipReports("foreign")
            defer { foreign.remove() }
            try foreign.add(2)
            chown(foreign.path, 65534, 65534)
            let other = HostRun.ship([foreign.path, "--to", collector.url])
            #expect(other.status == 2, "\(other.stderr)")
            #expect(other.stderr.contains("\(foreign.path) is owned by user 65534, not by you (user 0): refusing"), "\(other.stderr)")
        }
        #expect(collector.entries().isEmpty, "nothing was sent")
    }

    @Test("poison files (garbage, a huge file, a summary under a report name) are set aside with the reason, not retried; a planted symlink is not followed")
    func poisonFiles() throws {
        var reports = try ShipReports("poison")
        defer { reports.remove() }
        try reports.add(5)
        reports.plant("report-1-deadbeef-000001-layout-storm.json", Data("{\"schema\": \"loophunter/report\", \"version\": \"1.1\", ".utf8))
        reports.plant("report-2-deadbeef-000001-layout-storm.json", Data("not json at all".utf8))
        let huge = reports.path + "/report-3-deadbeef-000001-layout-storm.json"
        _ = FileManager.default.createFile(atPath: huge, contents: nil, attributes: [.posixPermissions: 0o600])
        truncate(huge, 17 << 20)
        let summary = try Data(contentsOf: Fixtures.reports.appendingPathComponent("summary-4101-aaaa0001.json"))
        reports.plant("report-4-deadbeef-000001-layout-storm.json", summary)
        // A symlink to a secret, planted under a report name: never followed, never sent.
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("lh-secret-\(UUID().uuidString.prefix(6))").path
        _ = FileManager.default.createFile(atPath: secret, contents: Data("{\"schema\":\"loophunter/report\",\"id\":\"planted-canary\"}".utf8))
        defer { try? FileManager.default.removeItem(atPath: secret) }
        symlink(secret, reports.path + "/report-5-deadbeef-000001-layout-storm.json")

        let collector = try ShipCollector(mode: "otlp", ["--canary", "planted-canary"])
        defer { collector.stop() }
        let run = HostRun.ship([reports.path, "--to", collector.url])
        #expect(run.status == 1, "some rejected, the rest sent: \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("5 sent, 4 rejected (4 unusable; reasons in"), "\(run.stdout)")
        #expect(run.stderr.contains("report-5-deadbeef-000001-layout-storm.json: not a regular file (a symlink?), not shipped"), "\(run.stderr)")
        #expect(Set(collector.acceptedCounts().keys) == Set(reports.ids))
        #expect(!collector.entries().contains { $0.canaryInBody == true }, "the symlink's target was never sent")
        let rejected = reports.names(in: "rejected")
        #expect(rejected.filter { $0.hasSuffix(".json") }.count == 4 && rejected.filter { $0.hasSuffix(".response") }.count == 4)
        let reasons = try rejected.filter { $0.hasSuffix(".response") }.map {
            try String(contentsOfFile: reports.spool + "/rejected/" + $0, encoding: .utf8)
        }.joined()
        for reason in ["not valid JSON", "larger than the 16777216-byte limit", "a process summary, not a report"] {
            #expect(reasons.contains(reason), "\(reason) in \(reasons)")
        }
        // Not retried: the next run sends nothing and sets nothing aside again.
        let again = HostRun.ship([reports.path, "--to", collector.url])
        #expect(again.status == 0 && again.stdout.contains("0 sent, 0 rejected, 0 still pending"), "\(again.stdout)")
        #expect(collector.entries().count == 1)
    }

    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

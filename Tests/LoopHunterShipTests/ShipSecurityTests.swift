import Foundation
import Testing
import LoopHunterTestSupport

/// Secrets and TLS: the token reaches the collector and nothing else; certificates are checked.
@Suite("ship: security")
struct ShipSecurityTests {
    @Test("the token (file or environment) reaches the collector and never the output, the spool or a body")
    func tokenNeverLeaks() throws {
        var reports = try ShipReports("token")
        defer { reports.remove() }
        try reports.add(4)
        let canary = "lh-canary-\(UUID().uuidString)"
        let tokenFile = reports.path + "/../lh-token-\(UUID().uuidString.prefix(6))"
        _ = FileManager.default.createFile(atPath: tokenFile, contents: Data("\(canary)\n".utf8), attributes: [.posixPermissions: 0o600])
        defer { try? FileManager.default.removeItem(atPath: tokenFile) }
        let collector = try ShipCollector(mode: "otlp", ["--token", canary, "--canary", canary])
        defer { collector.stop() }

        // The environment carries a second canary: it must not reach a body either.
        let environmentCanary = "lh-env-canary-\(UUID().uuidString)"
        let run = HostRun.ship([reports.path, "--to", collector.url, "--token-file", tokenFile, "--batch-size", "2"],
                                         environment: ["LH_SECRET_SETTING": environmentCanary])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(collector.entries().allSatisfy { $0.auth == "Bearer \(canary)" }, "the token was sent as a bearer token")
        #expect(!collector.entries().contains { $0.canaryInBody == true }, "no token in a body")

        // A wrong token: the 401 message must not show either token.
        try reports.add(1)
        let wrong = "lh-wrong-\(UUID().uuidString)"
        let refused = HostRun.ship([reports.path, "--to", collector.url, "--token-env", "LH_TEST_TOKEN"],
                                             environment: ["LH_TEST_TOKEN": wrong])
        #expect(refused.status == 2 && refused.stdout.contains("401 Unauthorized"), "\(refused.stdout)")

        // A custom header carries the token as it is.
        let custom = try ShipCollector(mode: "otlp", ["--token", canary, "--token-header", "x-api-key"])
        defer { custom.stop() }
        let header = HostRun.ship([reports.path, "--to", custom.url, "--token-env", "LH_TEST_TOKEN", "--token-header", "x-api-key"],
                                            environment: ["LH_TEST_TOKEN": canary])
        #expect(header.status == 0, "\(header.stdout)\(header.stderr)")
        #expect(custom.entries().first?.auth == canary)

        for output in [run.stdout, run.stderr, refused.stdout, refused.stderr, header.stdout, header.stderr] {
            #expect(!output.contains(canary) && !output.contains(wrong), "a token was printed: \(output)")
        }
        let spoolFiles = FileManager.default.enumerator(atPath: reports.spool)?.compactMap { $0 as? String } ?? []
        for file in spoolFiles {
            let data = FileManager.default.contents(atPath: reports.spool + "/" + file) ?? Data()
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(canary) && !text.contains(wrong) && !text.contains(environmentCanary), "\(file) holds a secret")
        }
        let bodies = collector.entries()
        #expect(!bodies.isEmpty)
    }

    @Test("TLS: an untrusted certificate stops shipping with what to do; --ca-file trusts it; --insecure works and warns")
    func tls() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lh-tls-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let cert = scratch + "/cert.pem", key = scratch + "/key.pem"
        let made = HostRun.run(["/usr/bin/env", "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                                "-keyout", key, "-out", cert])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        var reports = try ShipReports("tls")
        defer { reports.remove() }
        try reports.add(3)
        let collector = try ShipCollector(mode: "otlp", [], tls: (cert, key))
        defer { collector.stop() }

        let untrusted = HostRun.ship([reports.path, "--to", collector.url])
        #expect(untrusted.status == 2, "\(untrusted.stdout)\(untrusted.stderr)")
        #expect(untrusted.stdout.contains("the TLS handshake failed") && untrusted.stdout.contains("--ca-file"), "\(untrusted.stdout)")
        #expect(reports.names(in: "pending").count == 3)
        #expect(collector.acceptedCounts().isEmpty)

        let trusted = HostRun.ship([reports.path, "--to", collector.url, "--ca-file", cert])
        #expect(trusted.status == 0 && trusted.stdout.contains("3 sent"), "\(trusted.stdout)\(trusted.stderr)")
        #expect(!trusted.stderr.contains("warning"))

        try reports.add(2)
        let insecure = HostRun.ship([reports.path, "--to", collector.url, "--insecure"])
        #expect(insecure.status == 0 && insecure.stdout.contains("2 sent"), "\(insecure.stdout)\(insecure.stderr)")
        #expect(insecure.stderr.contains("warning: --insecure: the collector's TLS certificate is not checked"), "\(insecure.stderr)")
        #expect(Set(collector.acceptedCounts().keys) == Set(reports.ids))
    }
}

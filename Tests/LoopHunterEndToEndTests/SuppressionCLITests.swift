import Foundation
import LoopHunterTestSupport
import Testing

/// `--suppress` and `--write-suppressions` as a CI job uses them: a known loop suppressed passes
/// the gate and is still listed; a new one fails it; a mistyped file stops the command before the
/// program runs.
@Suite("suppressions: run and report")
struct SuppressionCLITests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lh-supp-\(UUID().uuidString.prefix(8))").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("run: the toykit loop suppressed by its app function passes --fail-on-breach and is still listed")
    func runSuppressed() throws {
        try Native.ensureBuilt()
        let rules = try Self.file("function:loop_toolbar_layout  # known: issue 42\n")
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let gated = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", Native.demo, "loop"])
        #expect(gated.status == 3, "unsuppressed, the loop fails the gate: \(gated.stderr)")
        let run = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--suppress", rules, "--", Native.demo, "loop"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("LoopHunter: no loops found (1 suppressed)"), "\(run.stderr)")
        #expect(run.stderr.contains("1 finding suppressed:"))
        #expect(run.stderr.contains("by function:loop_toolbar_layout (\(rules):1, known: issue 42)"), "\(run.stderr)")
        #expect(run.stdout.contains("scenario loop: done"), "the program ran")
    }

    @Test("report: --write-suppressions makes a baseline that --suppress accepts; a rule matching nothing is named")
    func baseline() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("supp-baseline")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir.path)
        #expect(run.status == 0)
        let baseline = FileManager.default.temporaryDirectory.appendingPathComponent("lh-baseline-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: baseline) }
        let first = HostRun.cli(["report", dir.path, "--fail-on-breach", "--write-suppressions", baseline])
        #expect(first.status == 3, "\(first.stderr)")
        let written = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(written.hasPrefix("finding:") && written.contains("# layout-storm: "), "\(written)")
        let extra = try Self.file(written + "kind:stall  # no stall expected\n")
        defer { try? FileManager.default.removeItem(atPath: extra) }
        let second = HostRun.cli(["report", dir.path, "--fail-on-breach", "--suppress", extra, "--format", "json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("suppression \(extra):2 (kind:stall) matched no finding"), "\(second.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let analysis = try #require(json["analysis"] as? [String: Any])
        #expect((analysis["findings"] as? [Any])?.isEmpty == true)
        #expect((analysis["suppressed"] as? [Any])?.count == 1)
    }

    @Test("a mistyped suppression file: exit 64 naming the file and line, the program never started")
    func badFile() throws {
        try Native.ensureBuilt()
        let rules = try Self.file("kind:layout-storm\nwidget:GtkLabel\n")
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let run = HostRun.cli(["run", "--suppress", rules, "--", Native.demo, "loop"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("\(rules):2: 'widget:GtkLabel' is not a condition"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "the program must not run")
        let missing = HostRun.cli(["report", "/tmp", "--suppress", "/nonexistent/lh.supp"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--suppress /nonexistent/lh.supp: cannot read it"), "\(missing.stderr)")
    }
}

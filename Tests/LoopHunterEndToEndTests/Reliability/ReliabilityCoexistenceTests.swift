import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Hosts that change under LoopHunter's feet: a seccomp sandbox entered after start-up (row 22), a
/// toolkit dlopened RTLD_LOCAL, dlclosed and reloaded elsewhere (rows 1, 18), and other preloads
/// beside LoopHunter in either order (row 32): libfaketime, gtk3-nocsd, a second poll interposer.
@Suite("reliability: sandboxes, reloaded toolkits, other preloads")
struct ReliabilityCoexistenceTests {
    static let sandbox = Rel.path("lh-rel-sandbox")
    static let reload = Rel.path("lh-rel-reload")
    static let pollHook = Rel.path("librel-poll.so")
    static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
    static let nocsd = "/usr/lib/x86_64-linux-gnu/libgtk3-nocsd.so.0"

    @Test("row 22: a process entering a seccomp sandbox (as a browser content process does) sees no violation; its report and summary reach the directory",
          arguments: ["tsync", "prctl"])
    func seccompSandbox(_ mode: String) throws {
        try Rel.ensureBuilt()
        // Several runs: what LoopHunter's stack walker does varies with the address layout.
        for round in 0..<5 {
            let dir = ReportDirectory("rel-sandbox-\(mode)")
            defer { dir.remove() }
            let run = Rel.same([Self.sandbox, mode], dir: dir, compareStderr: false)
            #expect(run.stdout == "sandbox: violations=0\n", "round \(round): \(run.stdout) \(run.stderr)")
            #expect(!run.stderr.contains("SIGSYS"), "\(run.stderr)")
            let spools = dir.fileNames.filter { SpoolFile.isSpoolName($0) }
            #expect(spools.count == 1 && dir.fileNames.count == 1, "only the spool, nothing written after the filter: \(dir.fileNames)")
            let collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read()
            #expect(collection.problems.isEmpty, "\(collection.problems)")
            let report = try #require(collection.reports.first?.report)
            #expect(collection.reports.count == 1 && report.kind == "layout-storm" && report.object.type == "SandboxView")
            #expect(!report.frames.isEmpty, "the stack was walked inside the sandbox")
            let summary = try #require(collection.summaries.first?.summary)
            #expect(summary.sandbox?.enteredBy.contains(mode == "tsync" ? "seccomp" : "prctl") == true, "\(String(describing: summary.sandbox))")
            #expect(summary.sandbox?.recordsSpooled == 1 && summary.sandbox?.recordsLost == 0)
        }
        // `loophunter run` unpacks the spool into report files (what `ship` and `watch` see).
        let runDir = ReportDirectory("rel-sandbox-run")
        defer { runDir.remove() }
        let cli = HostRun.run([Native.cli, "run", "--dir", runDir.path, "--no-symbolize", "--", Self.sandbox, mode])
        #expect(cli.status == 0 && cli.stdout == "sandbox: violations=0\n", "\(cli.stderr)")
        #expect(runDir.fileNames.contains { $0.hasPrefix("report-") && $0.hasSuffix("-layout-storm.json") }, "\(runDir.fileNames)")
        #expect(runDir.fileNames.contains { $0.hasPrefix("summary-") }, "\(runDir.fileNames)")
        #expect(cli.stderr.contains("SandboxView"), "the finding is printed once: \(cli.stderr)")
    }

    @Test("row 34: reports still queued for the writer thread when the sandbox begins are written before the filter applies; none after it",
          arguments: ["tsync", "prctl"])
    func sandboxAfterQueuedReports(_ mode: String) throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-sandbox-queued-\(mode)")
        defer { dir.remove() }
        let burst = 300
        let run = Rel.same([Self.sandbox, mode], dir: dir, extra: ["LH_SANDBOX_BURST": "\(burst)", "LOOPHUNTER_MAX_REPORTS": "1000"],
                           compareStderr: false)
        #expect(run.stdout == "sandbox: violations=0\n", "\(run.stdout) \(run.stderr)")
        let before = dir.fileNames.filter { $0.hasPrefix("report-") }
        #expect(before.count == burst, "every report made before the filter is a file: \(before.count)")
        #expect(!dir.fileNames.contains { $0.hasPrefix(".") }, "no temporary left: \(dir.fileNames.filter { $0.hasPrefix(".") })")
        let collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read()
        #expect(collection.problems.isEmpty, "\(collection.problems)")
        let types = collection.reports.map(\.report.object.type)
        #expect(Set(types.filter { $0.hasPrefix("Before") }).count == burst)
        #expect(types.filter { $0 == "SandboxView" }.count == 1, "the report made inside the sandbox, from the spool")
        let summary = try #require(collection.summaries.first?.summary)
        #expect(summary.sandbox?.recordsSpooled == 1 && summary.sandbox?.recordsLost == 0)
        #expect(summary.reports.written == UInt64(burst + 1) && summary.reports.failed == 0)
        let writer = try #require(summary.reports.writer)
        #expect(writer.queued > 0, "the writer thread ran before the sandbox: \(writer)")
    }

    @Test("a spool record cut short (a full disk) is never read as a report; the others are")
    func spoolCutShort() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-sandbox-cut")
        defer { dir.remove() }
        Rel.same([Self.sandbox, "tsync"], dir: dir, compareStderr: false)
        let name = try #require(dir.fileNames.first { SpoolFile.isSpoolName($0) })
        let path = dir.path + "/" + name
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(SpoolFile(data).records.count == 2 && SpoolFile(data).damaged == 0)
        // The report's record cut in half, the summary's intact after it.
        let first = SpoolFile(data).records[0].count
        var damaged = data
        damaged.removeSubrange(64 + first / 2 ..< 64 + first)
        try damaged.write(to: URL(fileURLWithPath: path))
        let spool = SpoolFile(damaged)
        #expect(spool.records.count == 1 && spool.damaged == 1)
        let collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read()
        #expect(collection.reports.isEmpty && collection.summaries.count == 1)
        #expect(collection.problems.count == 1 && collection.problems[0].description.contains("cut short"))
    }

    @Test("rows 1, 18: toykit dlopened RTLD_LOCAL, dlclosed and reloaded at another address: every round reported, no crash, kill switch too")
    func reloadedToolkit() throws {
        try Rel.ensureBuilt()
        let arguments = [Self.reload, "3", Native.toykitLibrary]
        let dir = ReportDirectory("rel-reload")
        defer { dir.remove() }
        let run = Rel.same(arguments, dir: dir, compareStderr: false)
        #expect(run.stdout == "reload 1: layouts=150\nreload 2: layouts=150\nreload 3: layouts=150\nreload: done\n")
        let names = try dir.reports().filter { $0.kind == "layout-storm" }.compactMap(\.object.name).sorted()
        #expect(names == ["reload-1", "reload-2", "reload-3"], "\(names)")
        let summary = try #require(try dir.summaries().first)
        #expect(!(summary.topObjects ?? []).contains { $0.type?.isEmpty == true }, "no type name read from reused memory")
        let off = ReportDirectory("rel-reload-off")
        defer { off.remove() }
        Rel.same(arguments, dir: off, extra: ["LOOPHUNTER_DISABLE": "1"], compareStderr: false)
        #expect(off.fileNames.isEmpty)
    }

    @Test("row 32: a second poll() interposer ahead of or after LoopHunter: both work, iterations still counted, no false report",
          arguments: [true, false])
    func secondPollInterposer(_ loopHunterFirst: Bool) throws {
        try Rel.ensureBuilt()
        let order = loopHunterFirst ? [Native.preload, Self.pollHook] : [Self.pollHook, Native.preload]
        for (scenario, kinds) in [("healthy", Set<String>()), ("loop", Set(["layout-storm"]))] {
            let dir = ReportDirectory("rel-poll")
            defer { dir.remove() }
            let plain = HostRun.run([Native.demo, scenario], environment: ["LD_PRELOAD": Self.pollHook])
            let traced = HostRun.run([Native.demo, scenario],
                                     environment: ["LD_PRELOAD": order.joined(separator: ":"), "LOOPHUNTER_DIR": dir.path])
            #expect(traced.status == 0 && traced.stdout == plain.stdout,
                    "\(order) \(scenario): status \(traced.status)\nplain stdout:\n\(plain.stdout)traced stdout:\n\(traced.stdout)stderr:\n\(traced.stderr)")
            #expect(traced.stderr.contains("pollhook: calls>0"), "the other interposer still works: \(traced.stderr)")
            #expect(Set(try dir.reports().map(\.kind.rawValue)) == kinds, "\(order) \(scenario)")
            let summary = try #require(try dir.summaries().first)
            // healthy runs ~330 iterations; without seeing through the other interposer it is 1.
            if scenario == "healthy" { #expect(summary.iterations > 100, "\(order): iterations \(summary.iterations)") }
        }
    }

    @Test("row 32: libfaketime ahead of or after LoopHunter: faked time, the loop's iterations counted", arguments: [true, false])
    func faketime(_ loopHunterFirst: Bool) throws {
        try Rel.ensureBuilt()
        try #require(FileManager.default.fileExists(atPath: Self.faketime), "install libfaketime")
        let order = loopHunterFirst ? [Native.preload, Self.faketime] : [Self.faketime, Native.preload]
        let date = ["/bin/date", "-u", "+%Y-%m-%d"]
        let plainDate = HostRun.run(date, environment: ["LD_PRELOAD": Self.faketime, "FAKETIME": "@2001-02-03 04:05:06"])
        let dir = ReportDirectory("rel-faketime")
        defer { dir.remove() }
        let tracedDate = HostRun.run(date, environment: ["LD_PRELOAD": order.joined(separator: ":"),
                                                         "FAKETIME": "@2001-02-03 04:05:06", "LOOPHUNTER_DIR": dir.path])
        #expect(plainDate.stdout == "2001-02-03\n" && tracedDate.stdout == plainDate.stdout, "\(order): \(tracedDate.stdout)")
        for (scenario, kinds) in [("healthy", Set<String>()), ("loop", Set(["layout-storm"]))] {
            let demo = ReportDirectory("rel-faketime-demo")
            defer { demo.remove() }
            let env: [String: String?] = ["LD_PRELOAD": order.joined(separator: ":"), "FAKETIME": "-1d", "LOOPHUNTER_DIR": demo.path]
            let run = HostRun.run([Native.demo, scenario], environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Set(try demo.reports().map(\.kind.rawValue)) == kinds, "\(order) \(scenario)")
            let iterations = try #require(try demo.summaries().first).iterations
            if scenario == "healthy" { #expect(iterations > 100, "\(order): iterations \(iterations)") }
        }
    }

    @Test("row 32: gtk3-nocsd ahead of or after LoopHunter: the GTK 3 loop found, the healthy program quiet", arguments: [true, false])
    func gtk3Nocsd(_ loopHunterFirst: Bool) throws {
        try Native.ensureBuilt()
        try #require(FileManager.default.fileExists(atPath: Self.nocsd), "install gtk3-nocsd")
        let order = loopHunterFirst ? [Native.preload, Self.nocsd] : [Self.nocsd, Native.preload]
        for (program, loops) in [("gtk3-idle-loop", 1), ("gtk3-healthy", 0)] {
            let dir = ReportDirectory("rel-nocsd")
            defer { dir.remove() }
            let run = HostRun.run(["/usr/bin/xvfb-run", "-a", "/usr/bin/env", "LD_PRELOAD=\(order.joined(separator: ":"))",
                                   "LOOPHUNTER_DIR=\(dir.path)", Native.gtkPrograms + "/" + program],
                                  environment: ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11", "GTK_CSD": "0"])
            #expect(run.status == 0 && run.stdout == "\(program): done\n", "\(order): \(run.stderr)")
            #expect(try dir.reports().filter { $0.kind.rawValue.hasPrefix("layout-") }.count == loops, "\(order) \(program)")
        }
    }
}

import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reliability row 32: replacement allocators from Debian's packages, preloaded after
/// LoopHunter (what `loophunter run` makes of a user's LD_PRELOAD), ahead of it, and linked into
/// the program. The host's status and output are unchanged; counts are exact wherever allocations
/// pass through LoopHunter; when they cannot, the summary and `report` name the allocator and say
/// what to do.
@Suite("reliability: replacement allocators (jemalloc, tcmalloc, mimalloc)")
struct ReliabilityAllocatorTests {
    struct Allocator: Sendable, CustomTestStringConvertible {
        let name: String
        let library: String
        let package: String
        var testDescription: String { name }
        /// lh-alloc-probe linked to this allocator (scripts/build-native.sh).
        var linkedProbe: String { Native.release.appendingPathComponent("test-programs/lh-alloc-probe-\(name)").path }

        func require() throws {
            try #require(FileManager.default.fileExists(atPath: library),
                         "\(library) is missing: install \(package) (scripts/setup.sh test does)")
        }
    }

    static let all = [
        Allocator(name: "jemalloc", library: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", package: "libjemalloc2"),
        Allocator(name: "tcmalloc", library: "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4", package: "libtcmalloc-minimal4"),
        Allocator(name: "mimalloc", library: "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2", package: "libmimalloc2.0"),
    ]

    /// A Python that loads a large C++ library: its malloc/free and its operator new/delete meet.
    static let python = ["/usr/bin/python3", "-c", "import ctypes; ctypes.CDLL('libLLVM-15.so.1'); print(sum(range(1000)))"]

    /// Runs `arguments` with `preloads` (in that order) and, when `dir` is given, LOOPHUNTER_DIR.
    static func run(_ arguments: [String], preloads: [String], dir: ReportDirectory?, extra: [String: String?] = [:],
                    timeout: Double = 120) -> HostRun {
        var env: [String: String?] = ["LD_PRELOAD": preloads.joined(separator: ":")]
        if let dir { env["LOOPHUNTER_DIR"] = dir.path }
        for (k, v) in extra { env[k] = v }
        return HostRun.run(arguments, environment: env, timeout: timeout)
    }

    /// The same program with the allocator alone and with LoopHunter beside it in `order`: same
    /// status and stdout. `succeeds`: the program itself exits 0 with this allocator (glibc-only
    /// edge cases, such as pvalloc where jemalloc has none, crash it with the allocator alone: then
    /// the same crash is what "unchanged" means). Returns the run with LoopHunter.
    @discardableResult
    static func same(_ arguments: [String], _ a: Allocator, loopHunterFirst: Bool, dir: ReportDirectory,
                     extra: [String: String?] = [:], succeeds: Bool = true,
                     sourceLocation: SourceLocation = #_sourceLocation) -> HostRun {
        let plain = run(arguments, preloads: [a.library], dir: nil, extra: extra)
        let order = loopHunterFirst ? [Native.preload, a.library] : [a.library, Native.preload]
        let traced = run(arguments, preloads: order, dir: dir, extra: extra)
        #expect(!plain.timedOut && (plain.status == 0 || !succeeds), "\(a.name) alone: \(plain.status) \(plain.stderr)",
                sourceLocation: sourceLocation)
        #expect(traced.status == plain.status && !traced.timedOut, "\(order): \(traced.status) \(traced.stderr)",
                sourceLocation: sourceLocation)
        #expect(traced.stdout == plain.stdout, "\(order): stdout changed:\n\(plain.stdout)\n---\n\(traced.stdout)",
                sourceLocation: sourceLocation)
        return traced
    }

    static func allocator(_ dir: ReportDirectory) throws -> [String: Any] {
        let alloc = try #require(try RawReports.summary(dir)["alloc"] as? [String: Any])
        return try #require(alloc["allocator"] as? [String: Any], "the summary names the allocator: \(alloc)")
    }

    @Test("preloaded after LoopHunter: Python, the stress programs and toykit unchanged, counts exact", arguments: all)
    func after(_ a: Allocator) throws {
        try Rel.ensureBuilt()
        try a.require()
        for extra: [String: String?] in [[:], ["LOOPHUNTER_DISABLE": "1"]] {
            let dir = ReportDirectory("alloc-\(a.name)-python")
            defer { dir.remove() }
            Self.same(Self.python, a, loopHunterFirst: true, dir: dir, extra: extra)
        }
        // Exact counts with the allocator's own usable sizes; its semantics kept.
        let exact = ReportDirectory("alloc-\(a.name)-exact")
        defer { exact.remove() }
        let run = Self.same([Native.allocProbe, "exact", "20", "300"], a, loopHunterFirst: true, dir: exact)
        let truth = ProbeOutput.numbers(run.stdout)
        let counted = try #require(RawReports.threadAlloc(try RawReports.summary(exact), "alloc-probe"))
        for key in ["calls", "bytes", "frees", "freed_bytes"] {
            #expect(RawReports.number(counted[key]) == truth[key], "\(a.name) \(key): \(counted[key] ?? "nil") vs \(truth[key] ?? 0)")
        }
        let allocator = try Self.allocator(exact)
        #expect(allocator["name"] as? String == a.name && allocator["ahead_of_loophunter"] as? Bool == false, "\(allocator)")
        let semantics = ReportDirectory("alloc-\(a.name)-semantics")
        defer { semantics.remove() }
        Self.same([Native.allocProbe, "semantics"], a, loopHunterFirst: true, dir: semantics, succeeds: false)
        // Threads freeing each other's blocks, forks with allocating threads, signals at 5 kHz.
        for arguments in [[Native.allocProbe, "stress", "4", "100000"], [Rel.program, "fork-storm", "6", "4"],
                          [Rel.program, "signals", "2", "5000"]] {
            let dir = ReportDirectory("alloc-\(a.name)-stress")
            defer { dir.remove() }
            Self.same(arguments, a, loopHunterFirst: true, dir: dir)
        }
        // toykit's scenarios report as without the allocator.
        for (scenario, kind) in [("loop", "layout-storm"), ("alloc-storm", "alloc-storm")] {
            let dir = ReportDirectory("alloc-\(a.name)-\(scenario)")
            defer { dir.remove() }
            Self.same([Native.demo, scenario], a, loopHunterFirst: true, dir: dir)
            let kinds = Set(try dir.reports().map(\.kind.rawValue))
            #expect(kinds == [kind], "\(a.name) \(scenario): \(kinds)")
        }
    }

    @Test("preloaded ahead of LoopHunter: unchanged; the summary and `report` name the allocator and the fix", arguments: all)
    func ahead(_ a: Allocator) throws {
        try Rel.ensureBuilt()
        try a.require()
        let pythonDir = ReportDirectory("alloc-\(a.name)-ahead-python")
        defer { pythonDir.remove() }
        Self.same(Self.python, a, loopHunterFirst: false, dir: pythonDir)
        let dir = ReportDirectory("alloc-\(a.name)-ahead")
        defer { dir.remove() }
        Self.same([Native.allocProbe, "exact", "5", "100"], a, loopHunterFirst: false, dir: dir)
        let allocator = try Self.allocator(dir)
        #expect(allocator["name"] as? String == a.name && allocator["ahead_of_loophunter"] as? Bool == true, "\(allocator)")
        #expect((allocator["note"] as? String)?.contains("put libloophunter.so first in LD_PRELOAD") == true, "\(allocator)")
        let alloc = try #require(try RawReports.summary(dir)["alloc"] as? [String: Any])
        #expect(alloc["malloc_is_ours"] as? Bool == false)
        let report = HostRun.run([Native.cli, "report", dir.path, "--no-symbolize"])
        #expect(report.stdout.contains("allocations not counted: \(a.name) (\(a.library)): loaded ahead of libloophunter.so"),
                "\(report.stdout)")
        // `loophunter run` puts LoopHunter first whatever the user's LD_PRELOAD holds: counted.
        let runDir = ReportDirectory("alloc-\(a.name)-run")
        defer { runDir.remove() }
        let cli = HostRun.run([Native.cli, "run", "--dir", runDir.path, "--", Native.allocProbe, "exact", "5", "100"],
                              environment: ["LD_PRELOAD": a.library])
        #expect(cli.status == 0, "\(cli.stderr)")
        let counted = try #require(RawReports.threadAlloc(try RawReports.summary(runDir), "alloc-probe"))
        #expect(ProbeOutput.numbers(cli.stdout)["calls"] == RawReports.number(counted["calls"]), "\(cli.stdout) \(counted)")
    }

    @Test("linked into the program: unchanged, counts exact", arguments: all)
    func linked(_ a: Allocator) throws {
        try Rel.ensureBuilt()
        try a.require()
        try #require(FileManager.default.fileExists(atPath: a.linkedProbe), "scripts/build-native.sh builds \(a.linkedProbe)")
        let dir = ReportDirectory("alloc-\(a.name)-linked")
        defer { dir.remove() }
        let plain = HostRun.run([a.linkedProbe, "exact", "20", "300"])
        let traced = HostRun.underPreload([a.linkedProbe, "exact", "20", "300"], dir: dir.path)
        #expect(plain.status == 0 && traced.status == 0 && traced.stdout == plain.stdout, "\(traced.stderr)")
        let truth = ProbeOutput.numbers(traced.stdout)
        let counted = try #require(RawReports.threadAlloc(try RawReports.summary(dir), "alloc-probe"))
        for key in ["calls", "bytes", "frees", "freed_bytes"] {
            #expect(RawReports.number(counted[key]) == truth[key], "\(a.name) linked \(key)")
        }
        #expect(try Self.allocator(dir)["name"] as? String == a.name)
        let semantics = HostRun.underPreload([a.linkedProbe, "semantics"], dir: dir.path)
        let alone = HostRun.run([a.linkedProbe, "semantics"])
        #expect(semantics.stdout == alone.stdout && semantics.status == alone.status, "\(semantics.status) vs \(alone.status)")
    }

    struct GTKCase: Sendable, CustomTestStringConvertible {
        let allocator: Allocator
        let program: String
        let loopHunterFirst: Bool
        var testDescription: String { "\(program) with \(allocator.name) \(loopHunterFirst ? "after" : "ahead of") LoopHunter" }
    }

    static let gtkCases: [GTKCase] = all.flatMap { a in
        ["gtk3-healthy", "gtk4-healthy"].flatMap { p in [true, false].map { GTKCase(allocator: a, program: p, loopHunterFirst: $0) } }
    }

    @Test("GTK 3 and GTK 4 programs with each allocator in either order: unchanged, nothing reported", arguments: gtkCases)
    func gtk(_ c: GTKCase) throws {
        try Native.ensureBuilt()
        try c.allocator.require()
        let dir = ReportDirectory("alloc-gtk")
        defer { dir.remove() }
        let program = Native.gtkPrograms + "/" + c.program
        let env: [String: String?] = ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11", "LH_RUN_FRAMES": "60"]
        let order = c.loopHunterFirst ? [Native.preload, c.allocator.library] : [c.allocator.library, Native.preload]
        let plain = HostRun.run(["/usr/bin/xvfb-run", "-a", "/usr/bin/env", "LD_PRELOAD=\(c.allocator.library)", program],
                                environment: env)
        let traced = HostRun.run(["/usr/bin/xvfb-run", "-a", "/usr/bin/env", "LD_PRELOAD=\(order.joined(separator: ":"))",
                                  "LOOPHUNTER_DIR=\(dir.path)", program], environment: env)
        #expect(plain.status == 0 && traced.status == 0 && !traced.timedOut, "\(c): \(traced.status) \(traced.stderr)")
        #expect(traced.stdout == plain.stdout)
        let kinds = try dir.reports().map(\.kind)
        #expect(kinds.isEmpty, "\(c): \(kinds)")
        let summary = try #require(try dir.summaries().first { $0.process.executable.hasSuffix(c.program) })
        #expect(summary.gtk?.counting == "on" && summary.layoutCalls > 0)
        #expect(summary.alloc?.allocator?.name == c.allocator.name)
        #expect(summary.alloc?.mallocIsOurs == c.loopHunterFirst)
    }
}

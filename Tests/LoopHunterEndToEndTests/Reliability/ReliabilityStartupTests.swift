import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reliability rows 1–8: loading and start-up. Each run is under a watchdog (HostRun) and
/// compared with the same program run without the preload.
@Suite("reliability: loading and start-up")
struct ReliabilityStartupTests {
    @Test("row 1: /bin/true and a -lpthread program start and end unchanged (no dlsym/calloc recursion)")
    func trivialHosts() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-true")
        defer { dir.remove() }
        Rel.same(["/bin/true"], dir: dir)
        Rel.same(["/bin/false"], dir: dir, status: 1)
        Rel.same([Rel.program, "thread-reuse"], dir: dir)
    }

    @Test("row 2: another preload's constructor mallocs and polls before ours: unchanged, counted")
    func earlierPreload() throws {
        try Rel.ensureBuilt()
        let first = Rel.path("librel-first.so")
        for order in ["\(first):\(Native.preload)", "\(Native.preload):\(first)"] {
            let dir = ReportDirectory("rel-first")
            defer { dir.remove() }
            let plain = HostRun.run([Rel.program, "storm"], environment: ["LD_PRELOAD": first])
            let run = HostRun.run([Rel.program, "storm"], environment: ["LD_PRELOAD": order, "LOOPHUNTER_DIR": dir.path])
            #expect(run.status == 0 && !run.timedOut && run.stdout == plain.stdout && run.stderr == plain.stderr, "\(order): \(run.stderr)")
            #expect(try Rel.json(dir, "report-").count == 1, "\(order): \(dir.fileNames)")
            let summary = try RawReports.summary(dir)
            #expect((summary["alloc"] as? [String: Any])?["malloc_is_ours"] as? Bool == true)
        }
    }

    @Test("row 3: a capture on every breach from 8 threads: per-thread counts equal the program's")
    func captureCounts() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-capture")
        defer { dir.remove() }
        let run = Rel.same([Rel.program, "threads-capture", "8"], dir: dir)
        let summary = try RawReports.summary(dir)
        for i in 0..<8 {
            let thread = try #require(Rel.thread(summary, "rel-\(i)"), "thread rel-\(i) in the summary")
            #expect(Rel.number(thread["layout_calls"]) == 505, "rel-\(i): \(thread)")
            // The program's 5 malloc/free pairs plus tk_view_new's calloc and strdup; the capture
            // path's own work (unwinder, formatting, file I/O) is invisible.
            let alloc = try #require(thread["alloc"] as? [String: Any])
            #expect(Rel.number(alloc["calls"]) == 7 && Rel.number(alloc["frees"]) == 5, "rel-\(i) alloc: \(alloc)")
        }
        #expect(try Rel.json(dir, "report-").count == 8, "one report per thread's view type")
        #expect(run.stdout.contains("rel-7 layouts=505"))
    }

    @Test("rows 4, 13: first capture inside a malloc hook; ~10 kHz SIGUSR1 for 10 s at 4 allocating threads, the handler mallocs and lays out")
    func signalsInsideHooks() throws {
        try Rel.ensureBuilt()
        // The first capture of the process is an alloc-storm, taken inside the malloc hook.
        let first = ReportDirectory("rel-first-capture")
        defer { first.remove() }
        Rel.same([Native.allocProbe, "exact", "3", "200"], dir: first,
                 extra: ["LOOPHUNTER_ALLOC_CALLS": "16", "LOOPHUNTER_ALLOC_REPEAT": "1"])
        let kinds = try Rel.json(first, "report-").compactMap { $0["kind"] as? String }
        #expect(kinds.contains("alloc-storm"), "\(kinds)")

        let dir = ReportDirectory("rel-signals")
        defer { dir.remove() }
        let run = HostRun.underPreload([Rel.program, "signals", "10", "10000"], dir: dir.path, timeout: 90)
        #expect(run.status == 0 && !run.timedOut, "\(run.status) \(run.stderr)")
        #expect(run.stdout == "signals: sent=yes handled=yes ops=yes\n")
        #expect(run.loophunterLines.isEmpty)
        #expect(Rel.allDecode(dir) >= 2, "reports and the summary decode: \(dir.fileNames)")
        let storms = try Rel.json(dir, "report-").filter { ($0["object"] as? [String: Any])?["type"] as? String == "RelView" }
        #expect(!storms.isEmpty, "the handler's 101 layouts were captured inside the handler")
    }

    @Test("row 5: dlopen/dlclose of a mallocing library in a loop while 8 threads capture stacks (no lock inversion)")
    func dlopenStorm() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-dlopen")
        defer { dir.remove() }
        // The reliability row asks for 60 s; 8 s keeps CI's budget (scripts/sanitize.sh and a
        // manual `lh-rel dlopen-storm 60 ...` run the long form).
        let run = HostRun.underPreload([Rel.program, "dlopen-storm", "8", Rel.path("librel-ctor.so")], dir: dir.path, timeout: 60)
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        #expect(run.stdout == "dlopen-storm: done\n" && run.loophunterLines.isEmpty)
        let summary = try RawReports.summary(dir)
        let reports = try #require(summary["reports"] as? [String: Any])
        #expect(Rel.number(reports["breaches"]) ?? 0 > 8 && Rel.number(reports["failed"]) == 0, "\(reports)")
    }

    @Test("row 6: the preload dlopen'ed late, after TLS-heavy libraries: the program runs on (outcome documented)")
    func lateDlopen() throws {
        try Rel.ensureBuilt()
        let tls = (1...4).map { Rel.path("librel-tls-\($0).so") }
        let run = HostRun.run([Rel.program, "dlopen-preload", Native.preload] + tls)
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        // glibc's static TLS surplus (Debian 12: ~1.6 KiB after the four TLS-heavy libraries) holds the
        // preload's 280 bytes of initial-exec TLS: it loads. Its hooks interpose nothing (only
        // LD_PRELOAD interposes): nothing is counted. (A glibc with a smaller surplus refuses it with
        // "cannot allocate memory in static TLS block"; the host goes on either way.)
        #expect(run.stdout.contains("dlopen-preload: loaded\n"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("dlopen-preload: done\n"))
    }

    @Test("row 7: a thread created after another exited (often reusing its TCB) starts from zero")
    func threadReuse() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-reuse")
        defer { dir.remove() }
        Rel.same([Rel.program, "thread-reuse"], dir: dir)
        let summary = try RawReports.summary(dir)
        let a = try #require(Rel.thread(summary, "rel-a")), b = try #require(Rel.thread(summary, "rel-b"))
        #expect(Rel.number(a["layout_calls"]) == 50 && Rel.number(b["layout_calls"]) == 3, "a: \(a) b: \(b)")
        #expect(Rel.number(b["max_count"]) ?? 99 <= 3)
    }

    @Test("row 8: ldd, libc.so.6 run directly, an unset or 4095-character report path: status unchanged, at most one line")
    func oddLoading() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-odd")
        defer { dir.remove() }
        let ldd = HostRun.underPreload(["/usr/bin/ldd", "/bin/ls"], dir: dir.path)
        #expect(ldd.status == 0 && !ldd.timedOut && ldd.stdout.contains("libc.so.6") && ldd.loophunterLines.isEmpty, "\(ldd.stderr)")
        let libc = "/lib/x86_64-linux-gnu/libc.so.6"
        let plainLibc = HostRun.run([libc])
        let tracedLibc = HostRun.underPreload([libc], dir: dir.path)
        #expect(tracedLibc.status == plainLibc.status && tracedLibc.stdout == plainLibc.stdout && tracedLibc.loophunterLines.isEmpty)
        // Unset: the default directory; /bin/true leaves nothing there anyway.
        let unset = HostRun.underPreload(["/bin/true"], dir: nil)
        #expect(unset.status == 0 && unset.stderr.isEmpty)
        // 4095 characters: one line naming the variable, the program unchanged, nothing written.
        let long = "/tmp/" + String(repeating: "d", count: 4090)
        let plain = HostRun.run([Rel.program, "storm"])
        let run = HostRun.underPreload([Rel.program, "storm"], dir: long)
        #expect(run.status == 0 && run.stdout == plain.stdout)
        #expect(run.loophunterLines.count == 1 && run.loophunterLines.first?.contains("LOOPHUNTER_DIR") == true, "\(run.loophunterLines)")
    }
}

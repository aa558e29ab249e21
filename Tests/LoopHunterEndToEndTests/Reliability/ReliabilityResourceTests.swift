import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reliability rows 21–27 and 31: coexistence, resources, report files, secrets.
@Suite("reliability: coexistence, resources, report files")
struct ReliabilityResourceTests {
    static let libasan = "/usr/lib/x86_64-linux-gnu/libasan.so.8"

    @Test("row 21: an AddressSanitizer host with LD_PRELOAD=libasan.so:libloophunter.so")
    func asanHost() throws {
        try Rel.ensureBuilt()
        try #require(FileManager.default.fileExists(atPath: Self.libasan), "gcc's libasan8")
        let dir = ReportDirectory("rel-asan")
        defer { dir.remove() }
        let asan = Rel.path("lh-rel-asan"), opts = "detect_leaks=0"
        let plain = HostRun.run([asan, "threads-capture", "8"], environment: ["ASAN_OPTIONS": opts])
        let run = HostRun.run([asan, "threads-capture", "8"], environment: [
            "LD_PRELOAD": "\(Self.libasan):\(Native.preload)", "ASAN_OPTIONS": opts, "LOOPHUNTER_DIR": dir.path])
        #expect(run.status == 0 && !run.timedOut && run.stdout == plain.stdout, "\(run.stderr)")
        #expect(!run.stderr.contains("AddressSanitizer"), "\(run.stderr)")
        #expect(try Rel.json(dir, "report-").count == 8)
        // ASan's malloc is the process's: the summary says the allocations are not ours to count.
        #expect((try RawReports.summary(dir)["alloc"] as? [String: Any])?["malloc_is_ours"] as? Bool == false)
    }

    @Test("row 22: no open, mkdir, getrandom or clone on the hot path (a seccomp filter kills on them)")
    func seccompHotPath() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-seccomp")
        defer { dir.remove() }
        let run = Rel.same([Rel.program, "seccomp"], dir: dir)
        #expect(run.stdout == "seccomp: 1000 iterations\n", "killed by the filter: status \(run.status)")
    }

    /// With the report writer thread (the default), the report made while every descriptor is taken
    /// is queued and written at once in the writer's own descriptor table (or, when the queue could
    /// not take it, fails on its breaching thread); on the breaching thread alone it fails, counted.
    @Test("row 23: RLIMIT_NOFILE 64, 1000 breaches without an fd leak, every fd taken: host unharmed, loss counted",
          arguments: ["1", "0"])
    func fileDescriptors(_ reportThread: String) throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-fds")
        defer { dir.remove() }
        let run = HostRun.underPreload([Rel.program, "fds", "1000"], dir: dir.path,
                                       extra: ["LOOPHUNTER_MAX_REPORTS": "2000", "LOOPHUNTER_REPORT_THREAD": reportThread])
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        let fields = ProbeOutput.numbers(run.stdout)
        #expect(fields["before"] != nil && fields["before"] == fields["after"], "\(run.stdout)")
        #expect(run.stdout.hasSuffix("exhausted=yes\n"))
        #expect(run.loophunterLines.count <= 1, "at most one line: \(run.loophunterLines)")
        let summary = try RawReports.summary(dir)
        let reports = try #require(summary["reports"] as? [String: Any])
        let written = Rel.number(reports["written"]) ?? 0, failed = Rel.number(reports["failed"]) ?? 0
        if reportThread == "0" {
            #expect(written == 1000 && failed == 1, "\(reports)")
        } else {
            #expect(written + failed == 1001 && failed <= 1 && written >= 1000, "\(reports)")
        }
        #expect(try Rel.json(dir, "report-").count == Int(written))
    }

    @Test("row 23: a report directory on a full file system: no hang, host unharmed, loss counted")
    func fullDisk() throws {
        try Rel.ensureBuilt()
        // A 64 KiB tmpfs in a private mount namespace (root only); filled before the run.
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return }
        let base = ReportDirectory("rel-full")
        try FileManager.default.createDirectory(atPath: base.path, withIntermediateDirectories: true)
        defer { base.remove() }
        let script = """
        mount -t tmpfs -o size=64k tmpfs "$1" && chmod 700 "$1" && mkdir -m 700 "$1/r" && \
        (dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; true) && \
        LD_PRELOAD="$2" LOOPHUNTER_DIR="$1/r" "$3" storm; s=$?; ls "$1/r" | wc -l; exit $s
        """
        let run = HostRun.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script, "sh", base.path, Native.preload, Rel.program])
        if run.stderr.contains("mount:") || run.stderr.contains("unshare:") { return } // no mount namespace here
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("storm: done\n"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("0\n"), "no partial file left: \(run.stdout)")
    }

    @Test("row 24: 50 rounds x 32 threads, half the blocks freed by another thread")
    func threadRounds() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-rounds")
        defer { dir.remove() }
        let run = Rel.same([Rel.program, "rounds", "50", "32"], dir: dir, timeout: 240)
        #expect(run.stdout == "rounds: 50 x 32 threads allocs=3200000 frees=3200000\n")
        let summary = try RawReports.summary(dir)
        let alloc = try #require(summary["alloc"] as? [String: Any])
        #expect(Rel.number(alloc["calls"]) ?? 0 >= 3_200_000 && Rel.number(alloc["frees"]) ?? 0 >= 3_200_000, "\(alloc)")
        #expect(Rel.number(alloc["threads_without_counters"]) == 0)
    }

    @Test("row 26: symlinks planted at the next report names: the canary is untouched, the loss counted")
    func plantedSymlink() throws {
        try Rel.ensureBuilt()
        let base = ReportDirectory("rel-symlink")
        defer { base.remove() }
        let dir = base.path + "/reports"
        let run = HostRun.underPreload([Rel.program, "symlink"], dir: dir)
        #expect(run.status == 0 && !run.timedOut && run.stdout == "symlink: planted\n", "\(run.stderr)")
        let canaries = ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).filter { $0.hasPrefix("canary") }
        #expect(canaries.isEmpty, "a symlink was followed: \(canaries)")
        let reports = ReportDirectory(at: dir)
        let summary = try RawReports.summary(reports)
        let counted = try #require(summary["reports"] as? [String: Any])
        #expect(Rel.number(counted["written"]) == 1 && Rel.number(counted["failed"]) == 1, "\(counted)")
        #expect(run.loophunterLines.count == 1, "\(run.loophunterLines)")
    }

    @Test("row 27: kill -9 of a report writer at random points, 1000 times: nothing torn is ever read")
    func killNine() throws {
        try Rel.ensureBuilt()
        let dir = ReportDirectory("rel-kill9")
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        chmod(dir.path, 0o700)
        defer { dir.remove() }
        let run = HostRun.run([Rel.program, "killer", "1000", "12", Native.preload, dir.path, Rel.program, "many", "100000"], timeout: 300)
        #expect(run.status == 0 && !run.timedOut && run.stdout == "killer: runs=1000\n", "\(run.stderr)")
        let collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read()
        #expect(collection.problems.isEmpty, "torn or unreadable: \(collection.problems.prefix(5))")
        #expect(collection.reports.count > 100, "reports written before the kills: \(collection.reports.count)")
        let ids = collection.reports.map(\.report.id)
        #expect(Set(ids).count == ids.count, "duplicate ids")
    }

    @Test("row 31: a canary in the environment, argv and $HOME never appears in a report, a summary or the output")
    func secrets() throws {
        try Rel.ensureBuilt()
        let canary = "CANARY-\(UUID().uuidString)"
        let dir = ReportDirectory("rel-secret")
        defer { dir.remove() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(canary).path
        let run = HostRun.underPreload([Rel.program, "storm", canary, "--token=\(canary)"], dir: dir.path,
                                       extra: ["HOME": home, "API_TOKEN": canary])
        #expect(run.status == 0 && !run.timedOut)
        var texts = try dir.fileNames.map { try String(contentsOfFile: dir.path + "/" + $0, encoding: .utf8) }
        #expect(texts.count == 2)
        let formatted = HostRun.run([Native.cli, "report", dir.path, "--format", "json"])
        texts.append(formatted.stdout)
        for text in texts { #expect(!text.contains(canary), "the canary leaked") }
    }
}

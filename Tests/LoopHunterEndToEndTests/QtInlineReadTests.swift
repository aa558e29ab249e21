import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// Size reads no call shows (`QWidget::width()` is inline in Qt's headers), seen by hardware
/// watchpoints on a suspect widget's size (runtime/lh_watch.c; docs/causes.md, "Reads no call
/// shows"), on the Qt corpus's two programs whose 16 ms timer reads a widget's size and requests
/// layout: the loop `jitter` (found only through its read) and the healthy `square_keeper`
/// (watched, its reads seen, its sizes following the window: no report); and `jitter` where
/// perf_event_open fails, as in a container: nothing watched, nothing reported, the program as
/// without LoopHunter.
@Suite("Qt: size reads inline in Qt's headers, seen by watchpoints")
struct QtInlineReadTests {
    static let environment: [String: String?] = ["CAUSE_SECONDS": "4", "QT_QPA_PLATFORM": "offscreen",
                                                 "QT_QUICK_BACKEND": "software"]

    static func program(_ name: String) throws -> QtProgram {
        try #require(QtProgram.all().first { $0.name == name }, "\(name): build it with scripts/build-qt-programs.sh")
    }

    /// The program's run: its status and output as without LoopHunter; its summary's inline reads
    /// and its layout reports.
    static func check(_ run: HostRun, _ program: QtProgram, _ dir: ReportDirectory) throws -> (SummaryInlineReads, [Report]) {
        #expect(run.status == 0 && !run.timedOut, "\(program.name): \(run.status) \(run.stderr)")
        #expect(run.stdout == "\(program.name): done\n", "the program's output: \(run.stdout)")
        let summary = try #require(try dir.summaries().first, "\(program.name) wrote its summary")
        let reads = try #require(summary.causes?.inlineReads, "the summary's causes.inline_reads")
        return (reads, try dir.reports().filter { $0.kind.rawValue.hasPrefix("layout-") })
    }

    @Test("a timer that reads a widget's width: the loop is found by its read, the square keeper is watched and left alone",
          arguments: [5, 6])
    func watched(major: Int) throws {
        try Native.ensureBuilt()
        for (mechanism, loops) in [("jitter", true), ("square-keeper", false)] {
            let program = try Self.program("qt\(major)-\(mechanism)")
            let dir = ReportDirectory("inline-\(program.name)")
            defer { dir.remove() }
            let run = HostRun.underPreload([program.path], dir: dir.path, extra: Self.environment, timeout: 120)
            let (reads, reports) = try Self.check(run, program, dir)
            let described = reports.map { "\($0.object.path) cause=\($0.cause?.kind ?? "-")" }
            #expect(reads.unavailableCall == nil && reads.unavailableErrno == nil, "\(program.name): \(reads)")
            // A 16 ms timer for 4 s: about 250 ticks (jitter re-requests in each, the keeper after
            // each of the window's 80 resizes).
            #expect(reads.watchesArmed >= 1 && reads.requestsAfterARead >= 20, "\(program.name): \(reads)")
            if loops {
                let report = try #require(reports.first { program.truth.isNamed(in: $0) }, "\(program.name): \(described)")
                #expect(report.cause?.kind == "result", "\(program.name): \(described)")
            } else {
                #expect(reports.isEmpty, "a healthy program: \(described)")
            }
        }
    }

    @Test("where perf_event_open fails (a container's seccomp profile): nothing watched, no report, the program as without",
          arguments: [5, 6])
    func unavailable(major: Int) throws {
        try Rel.ensureBuilt()
        let program = try Self.program("qt\(major)-jitter")
        let dir = ReportDirectory("inline-noperf-\(program.name)")
        defer { dir.remove() }
        var environment = Self.environment
        environment["LH_NOPERF_PRELOAD"] = Native.preload
        environment["LOOPHUNTER_DIR"] = dir.path
        let run = HostRun.run([Rel.path("lh-rel-noperf"), program.path], environment: environment, timeout: 120)
        let (reads, reports) = try Self.check(run, program, dir)
        #expect(reads.unavailableCall == "perf_event_open" && reads.unavailableErrno == 1, "\(reads)")
        #expect(reads.watchesArmed == 0 && reads.requestsAfterARead == 0, "\(reads)")
        #expect(reports.isEmpty, "\(reports.map(\.object.path))")
    }
}

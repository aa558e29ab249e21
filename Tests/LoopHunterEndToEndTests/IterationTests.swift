import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// What an iteration is (waits of the event-loop library only, the override, the explicit mark),
/// and how reports are throttled and capped.
@Suite("iterations, throttling and caps")
struct IterationTests {
    @Test("a poll() made outside the event-loop library does not start an iteration")
    func foreignPoll() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("foreign")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.probe, "foreign-poll"], dir: dir.path,
                                       extra: ["LOOPHUNTER_THRESHOLD": "50"])
        #expect(run.status == 0 && run.stdout == "foreign-poll: done\n")
        let report = try #require(try dir.reports().first, "60 layouts between foreign polls are one iteration")
        #expect(report.kind == "layout-storm" && report.object.type == "ProbeView" && report.count == 51)
        let summary = try #require(try dir.summaries().first)
        #expect(summary.iterationSource.loopCodeRanges > 0 && !summary.iterationSource.everyWaitIsAnIteration)
        #expect((summary.hooks.first { $0.name == "poll" }?.calls ?? 0) >= 60)
    }

    @Test("LOOPHUNTER_LOOP_LIBS names the libraries whose waits are iterations")
    func loopLibsOverride() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("override")
        defer { dir.remove() }
        // The probe's own polls now mark iterations: 60 iterations of one layout each.
        let run = HostRun.underPreload([Native.probe, "foreign-poll"], dir: dir.path,
                                       extra: ["LOOPHUNTER_THRESHOLD": "50", "LOOPHUNTER_LOOP_LIBS": "lh-probe"])
        #expect(run.status == 0 && run.loophunterLines.isEmpty)
        #expect(try dir.reports().isEmpty)
        let summary = try #require(try dir.summaries().first)
        #expect(summary.iterations >= 60)
        #expect(summary.max?.count == 1)
        #expect(summary.config["LOOPHUNTER_LOOP_LIBS"] == .text("lh-probe"))
    }

    @Test("loophunter_iteration_mark() delimits iterations of an unknown loop")
    func explicitMarks() throws {
        try Native.ensureBuilt()
        let calm = ReportDirectory("marks")
        defer { calm.remove() }
        _ = HostRun.underPreload([Native.probe, "marks", "10", "30"], dir: calm.path, extra: ["LOOPHUNTER_THRESHOLD": "50"])
        #expect(try calm.reports().isEmpty)
        let summary = try #require(try calm.summaries().first)
        #expect(summary.iterations == 10 && summary.layoutCalls == 300 && summary.max?.count == 30)

        let stormy = ReportDirectory("marks-storm")
        defer { stormy.remove() }
        let plain = HostRun.run([Native.probe, "marks", "1", "300"])
        let run = HostRun.underPreload([Native.probe, "marks", "1", "300"], dir: stormy.path,
                                       extra: ["LOOPHUNTER_THRESHOLD": "50"])
        #expect(plain.status == 0 && run.stdout == plain.stdout, "the weak reference runs without the preload")
        #expect(try stormy.reports().map(\.count) == [51])
    }

    @Test("LOOPHUNTER_MAX_REPORTS caps the reports; the rest is counted")
    func cap() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cap")
        defer { dir.remove() }
        _ = HostRun.underPreload([Native.probe, "many-types", "7"], dir: dir.path, extra: ["LOOPHUNTER_MAX_REPORTS": "3"])
        #expect(try dir.reports().count == 3)
        let summary = try #require(try dir.summaries().first)
        #expect(summary.reports.breaches == 7 && summary.reports.written == 3 && summary.reports.capped == 4)
        #expect(Set(try dir.reports().map(\.fingerprint)).count == 3, "distinct types, distinct fingerprints")

        let none = ReportDirectory("cap-zero")
        defer { none.remove() }
        _ = HostRun.underPreload([Native.probe, "many-types", "2"], dir: none.path, extra: ["LOOPHUNTER_MAX_REPORTS": "0"])
        #expect(try none.reports().isEmpty)
        #expect(try none.summaries().first?.reports.capped == 2)
    }

    @Test("one report per fingerprint per process, or per LOOPHUNTER_THROTTLE_SECS window")
    func throttle() throws {
        try Native.ensureBuilt()
        let once = ReportDirectory("throttle-once")
        defer { once.remove() }
        _ = HostRun.underPreload([Native.probe, "repeat-storm", "600"], dir: once.path)
        let summary = try #require(try once.summaries().first)
        #expect(try once.reports().count == 1)
        #expect(summary.reports.suppressed == summary.reports.breaches - 1 && summary.reports.breaches >= 3)
        #expect(summary.fingerprints.first?.suppressed == summary.reports.suppressed)

        // A 1 s window over a 2.5 s storm: reports at the start and at least one window later;
        // never more than one per window.
        let windowed = ReportDirectory("throttle-window")
        defer { windowed.remove() }
        _ = HostRun.underPreload([Native.probe, "repeat-storm", "2500"], dir: windowed.path,
                                 extra: ["LOOPHUNTER_THROTTLE_SECS": "1"])
        let reports = try windowed.reports().sorted { $0.timeNs < $1.timeNs }
        #expect((2...3).contains(reports.count), "\(reports.count) reports")
        for (a, b) in zip(reports, reports.dropFirst()) {
            #expect(b.timeNs - a.timeNs >= 1_000_000_000, "two reports within one window")
        }
    }

    @Test("a program with no toolkit and no event loop runs unchanged and leaves nothing")
    func plainProgram() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("poller")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.poller], dir: dir.path)
        #expect(run.status == 0 && run.stdout == "poller: done\n" && run.stderr.isEmpty)
        #expect(dir.fileNames.isEmpty, "\(dir.fileNames)")
    }
}

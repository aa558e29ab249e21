import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// The Qt corpus (Tests/Programs/qt: loops of the mechanisms issue 19 names and healthy programs
/// that relayout a lot, Widgets and Quick, each built for Qt 5 and Qt 6), each run once under the
/// preload for CAUSE_SECONDS on the offscreen platform, and a Widgets and a Quick program of each
/// verdict on xcb under Xvfb and with Qt's own event dispatcher (QT_NO_GLIB=1). Pass: every loop
/// reported with its object, its cause kind and the function that re-requested layout (C++: on the
/// request's stack, or where the callback that carried the cause was added; QML: on the request's
/// QML stack); no report at all on a healthy program; the program's output and exit status as
/// without LoopHunter (each prints only `NAME: done`).
@Suite("the Qt corpus: loops found with object, cause and function; healthy programs left alone")
struct QtCorpusTests {
    static let programs = QtProgram.all()
    static let seconds = "4"

    /// Loops LoopHunter does not find yet, with the reason (docs/qt.md, "Limits"). Their runs are
    /// recorded as known issues, not skipped: each run still checks the program's output, and the
    /// known issue flags itself the day the loop is found.
    static let knownGaps: [String: String] = [:]

    @Test("the Qt corpus is built and complete: 8 loop and 8 healthy mechanisms, Widgets and Quick, Qt 5 and Qt 6")
    func complete() {
        let loops = Self.programs.filter(\.truth.loops), healthy = Self.programs.filter { !$0.truth.loops }
        #expect(Set(loops.map(\.mechanism)).count >= 8 && Set(healthy.map(\.mechanism)).count >= 8,
                "build it with scripts/build-qt-programs.sh: \(loops.count) loop and \(healthy.count) healthy programs found")
        for major in [5, 6] {
            for module in ["Widgets", "Quick"] {
                #expect(loops.contains { $0.major == major && $0.modules.contains(module) }, "a Qt \(major) \(module) loop")
                #expect(healthy.contains { $0.major == major && $0.modules.contains(module) }, "a healthy Qt \(major) \(module) program")
            }
        }
        #expect(Set(loops.compactMap(\.truth.cause)).isSuperset(of: ["in-layout", "deferred"]))
    }

    /// Runs the program under the preload on `platform` (offscreen, or xcb under Xvfb) and checks
    /// its output; returns the reports.
    static func reports(_ program: QtProgram, platform: String, glib: Bool) throws -> [Report] {
        try Native.ensureBuilt()
        let dir = ReportDirectory("qt-\(program.name)-\(platform)\(glib ? "" : "-noglib")")
        defer { dir.remove() }
        // The software scene graph: Xvfb has no GPU (docs/qt.md). QT_NO_GLIB: Qt's own dispatcher.
        let extra: [String: String?] = ["CAUSE_SECONDS": Self.seconds, "QT_QPA_PLATFORM": platform,
                                        "QT_QUICK_BACKEND": "software", "QT_NO_GLIB": glib ? nil : "1"]
        let run = platform == "xcb"
            ? GTKRun.run([program.path], dir: dir.path, extra: extra)
            : HostRun.underPreload([program.path], dir: dir.path, extra: extra, timeout: 120)
        #expect(run.status == 0 && !run.timedOut, "\(program.name) on \(platform): \(run.status) \(run.stderr)")
        #expect(run.stdout == "\(program.name): done\n", "the program's output: \(run.stdout)")
        return try dir.reports()
    }

    static func check(_ program: QtProgram, platform: String, glib: Bool = true) throws {
        let reports = try Self.reports(program, platform: platform, glib: glib)
        let described = reports.map { "\($0.kind.rawValue) \($0.object.path) cause=\($0.cause?.kind ?? "-")" }
        guard program.truth.loops else {
            #expect(reports.isEmpty, "a healthy program: \(described)")
            return
        }
        let truth = program.truth
        let layoutReports = reports.filter { $0.kind.rawValue.hasPrefix("layout-") }
        if let gap = Self.knownGaps[program.mechanism] {
            withKnownIssue("not found yet: \(gap)") {
                #expect(layoutReports.contains { truth.isNamed(in: $0) }, "\(described)")
            }
            // A loop reported on another object than the truth's still names the function.
            if let report = layoutReports.first, let cause = report.cause { Self.checkFunction(program, report, cause) }
            return
        }
        let report = try #require(layoutReports.first { truth.isNamed(in: $0) }, "the loop of \(truth.names) is reported: \(described)")
        #expect(reports.allSatisfy { $0.kind.rawValue.hasPrefix("layout-") || $0.kind == .toolkitWarning },
                "only layout reports (and Qt's own warnings): \(described)")
        let cause = try #require(report.cause, "the report says why: \(described)")
        #expect(truth.causes.contains(cause.kind), "cause \(cause.kind), truth \(truth.causes)")
        Self.checkFunction(program, report, cause)
    }

    /// The function that re-requested layout is named: a C++ function among the program's frames of
    /// the request's stack or of where the callback that carried the cause was added; a QML function
    /// in the request's QML stack.
    static func checkFunction(_ program: QtProgram, _ report: Report, _ cause: ReportCause) {
        let truth = program.truth
        guard program.functionIsNative else {
            let script = cause.requestScript
            #expect(script?.language == "qml" && script?.frames.contains { truth.functions.contains($0.function) } == true,
                    "re-requested by the QML function \(truth.functions): \(script.map { "\($0.frames.map(\.function))" } ?? "no QML stack")")
            return
        }
        let stacks = [cause.requestStack] + cause.addedBy.map(\.stack)
        let symbols = stacks.flatMap { $0 }.filter { $0.module == report.process.executable }.compactMap(\.symbol)
        #expect(symbols.contains { program.names($0) },
                "re-requested by \(truth.functions): the program's frames of the cause \(symbols)")
    }

    @Test("one run under the preload (offscreen)", arguments: programs)
    func offscreen(_ program: QtProgram) throws {
        try Self.check(program, platform: "offscreen")
    }

    /// A loop and a healthy program of each module and Qt version.
    static let sample = programs.filter { ["wrap_label", "quick_polish", "window_resize", "width_anim"].contains($0.mechanism) }

    @Test("xcb under Xvfb: the same verdicts", arguments: sample)
    func xcb(_ program: QtProgram) throws {
        try Self.check(program, platform: "xcb")
    }

    /// QT_NO_GLIB=1: Qt's own event dispatcher, whose waits are QtCore's (LOOPHUNTER_LOOP_LIBS).
    @Test("Qt's own event dispatcher (QT_NO_GLIB=1): the same verdicts", arguments: sample)
    func withoutGLib(_ program: QtProgram) throws {
        try Self.check(program, platform: "offscreen", glib: false)
    }
}

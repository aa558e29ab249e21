import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// The cause corpus (Tests/Programs/causes: loops of every mechanism issue 18 names and healthy
/// programs that relayout a lot, in C, Python and GJS, on GTK 3 and GTK 4), each run once under the
/// preload for CAUSE_SECONDS. Pass: every loop reported with its widget, its cause kind and the
/// app function that re-requested layout (C: on the request's stack; Python and GJS: on its script
/// stack); no report at all on a healthy program;
/// the program's output and exit status as without LoopHunter (each prints only `NAME: done`).
/// scripts/causes/run-corpus.sh is the same check with plain runs beside, times and a table.
@Suite("the cause corpus: loops found with widget, cause and function; healthy programs left alone")
struct CauseCorpusTests {
    static let programs = CorpusProgram.all()
    /// Long enough for the late-starting loop (2 s of health first) and for a healthy program to
    /// show 4 s of its animation; the default LOOPHUNTER_LOOP_FRAMES is 30 frames (0.5 s at 60 Hz).
    static let seconds = "4"

    @Test("the corpus is built and complete")
    func complete() {
        let loops = Self.programs.filter(\.truth.loops), healthy = Self.programs.filter { !$0.truth.loops }
        #expect(loops.count >= 24 && healthy.count >= 24,
                "build it with scripts/build-cause-programs.sh: \(loops.count) loop and \(healthy.count) healthy runs found")
        #expect(Set(loops.compactMap(\.truth.cause)) == ["in-layout", "deferred", "result"])
    }

    /// Runs the program under the preload (inside a session bus of its own when `dbus`: the preload
    /// on the program only) and checks its output; returns the reports.
    static func reports(_ program: CorpusProgram, dbus: Bool) throws -> [Report] {
        try Native.ensureBuilt()
        let dir = ReportDirectory("corpus-\(program.name)\(dbus ? "-dbus" : "")")
        defer { dir.remove() }
        var extra: [String: String?] = ["CAUSE_SECONDS": Self.seconds]
        let run: HostRun
        if dbus {
            extra["LOOPHUNTER_DIR"] = dir.path
            run = GTKRun.run(["/usr/bin/dbus-run-session", "--", "/usr/bin/env", "LD_PRELOAD=\(Native.preload)"] + program.command,
                             dir: nil, extra: extra)
        } else {
            run = GTKRun.run(program.command, dir: dir.path, extra: extra)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(program.name): done\n", "the program's output: \(run.stdout)")
        return try dir.reports()
    }

    @Test("healthy programs inside dbus-run-session (a session bus, as on a desktop): no report",
          arguments: programs.filter { !$0.truth.loops })
    func healthyWithSessionBus(_ program: CorpusProgram) throws {
        let reports = try Self.reports(program, dbus: true)
        #expect(reports.isEmpty, "a healthy program: \(reports.map { "\($0.kind.rawValue) \($0.object.path)" })")
    }

    @Test("one run under the preload", arguments: programs)
    func run(_ program: CorpusProgram) throws {
        let reports = try Self.reports(program, dbus: false)
        let described = reports.map { "\($0.kind.rawValue) \($0.object.path) cause=\($0.cause?.kind ?? "-")" }
        guard program.truth.loops else {
            #expect(reports.isEmpty, "a healthy program: \(described)")
            return
        }
        let truth = program.truth
        let found = reports.filter { $0.kind.rawValue.hasPrefix("layout-") && truth.isNamed(in: $0) }
        let report = try #require(found.first, "the loop of \(truth.names) is reported: \(described)")
        #expect(reports.allSatisfy { $0.kind.rawValue.hasPrefix("layout-") || $0.kind == .toolkitWarning },
                "only layout reports (and GTK's own warnings): \(described)")
        let cause = try #require(report.cause, "the report says why: \(described)")
        #expect(cause.kind == truth.cause, "cause \(cause.kind), truth \(truth.cause ?? "?")")
        guard program.isNative else {
            // A script's re-requesting function: the first frame of its own file on the request's
            // script stack (Python or JavaScript, taken by the preload where the native stack
            // shows only the interpreter).
            let script = try #require(cause.requestScript, "the request's script stack: \(described)")
            #expect(script.language == (program.name.hasPrefix("py-") ? "python" : "javascript"))
            let fileName = URL(fileURLWithPath: program.sourceFile).lastPathComponent
            let own = script.frames.first { URL(fileURLWithPath: $0.file).lastPathComponent == fileName }
            #expect(own.map { truth.functions.contains($0.function) && ($0.line ?? 0) > 0 } == true,
                    "requested by \(own.map { "\($0.function) line \($0.line ?? 0)" } ?? "no frame of \(fileName)"), truth \(truth.functions); script stack \(script.frames.map(\.function))")
            return
        }
        // The re-requesting function: the first frame of the program on the request's stack.
        let executable = report.process.executable
        let requester = cause.requestStack.first { $0.module == executable && $0.symbol != "main" }?.symbol
        #expect(requester.map { truth.functions.contains($0) } == true,
                "requested by \(requester ?? "no frame of the program"), truth \(truth.functions); stack \(cause.requestStack.compactMap(\.symbol))")
    }
}

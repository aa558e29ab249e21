import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// GTK that arrives after LoopHunter started (Tests/Programs/late): PyGObject and GJS programs
/// whose widget subclasses and vfuncs are written in Python and JavaScript, and a C program that
/// dlopens GTK RTLD_LOCAL. Loops are reported like a C program's, healthy programs get nothing,
/// calls made through introspection are seen, and the kill switch is exactly "not loaded".
@Suite("GTK loaded late: Python, JavaScript, dlopen")
struct LateToolkitTests {
    static let late = Native.root.appendingPathComponent("Tests/Programs/late").path
    static let python = "/usr/bin/python3"
    static let gjs = "/usr/bin/gjs"

    struct Program: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let name: String
        /// The looping widget's type, nil for a healthy program.
        let loopType: String?
        var testDescription: String { name }
    }

    static let programs: [Program] = [3, 4].flatMap { v in
        [Program(arguments: [python, late + "/py_loop.py", "\(v)"], name: "py-gtk\(v)-loop", loopType: "PyLoopLabel"),
         Program(arguments: [python, late + "/py_healthy.py", "\(v)"], name: "py-gtk\(v)-healthy", loopType: nil),
         Program(arguments: [gjs, late + "/js_loop.js", "\(v)"], name: "js-gtk\(v)-loop", loopType: "JsLoopLabel"),
         Program(arguments: [gjs, late + "/js_healthy.js", "\(v)"], name: "js-gtk\(v)-healthy", loopType: nil)]
    } + [Program(arguments: [Native.gtkPrograms + "/lh-late-gtk"], name: "lh-late-gtk", loopType: "GtkLabel"),
         Program(arguments: [Native.gtkPrograms + "/lh-late-gtk", "healthy"], name: "lh-late-gtk", loopType: nil)]

    static func run(_ p: Program, dir: ReportDirectory?, extra: [String: String?] = [:]) -> HostRun {
        var command = ["/usr/bin/xvfb-run", "-a"]
        if let dir { command += ["/usr/bin/env", "LD_PRELOAD=\(Native.preload)", "LOOPHUNTER_DIR=\(dir.path)"] }
        var env: [String: String?] = ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11"]
        for (k, v) in extra { env[k] = v }
        return HostRun.run(command + p.arguments, environment: env, timeout: 120)
    }

    @Test("a loop in a widget subclass written in the language is reported like a C one; a busy healthy program gets nothing",
          arguments: programs)
    func program(_ p: Program) throws {
        try Native.ensureBuilt()
        try #require(FileManager.default.isExecutableFile(atPath: p.arguments[0]), "\(p.arguments[0]): install python3-gi / gjs")
        let plain = Self.run(p, dir: nil)
        #expect(plain.status == 0 && plain.stdout == "\(p.name): done\n", "\(plain.stderr)")
        let dir = ReportDirectory("late-\(p.name)")
        defer { dir.remove() }
        let traced = Self.run(p, dir: dir)
        #expect(traced.status == 0 && traced.stdout == plain.stdout && traced.stderr == plain.stderr, "\(traced.stderr)")
        let summary = try #require(try dir.summaries().first { $0.gtk != nil }, "\(dir.fileNames)")
        #expect(summary.gtk?.counting == "on" && summary.layoutCalls > 100, "GTK seen when it arrived: \(summary.layoutCalls)")
        let reports = try dir.reports()
        guard let type = p.loopType else {
            #expect(reports.isEmpty, "a healthy program: \(reports.map { "\($0.kind) \($0.object.path)" })")
            return
        }
        #expect(reports.count == 1, "\(reports.map { "\($0.kind) \($0.object.path)" })")
        let loop = try #require(reports.first)
        #expect(loop.kind == "layout-loop" && loop.object.type == type && loop.object.name == "status")
        #expect(loop.cause?.kind == "deferred" && loop.cause?.addedBy.first?.kind == "in-layout",
                "an idle added in layout re-requests it: \(String(describing: loop.cause))")
        #expect(loop.object.path == "GtkWindow 'main-window' > GtkBox 'toolbar' > \(type) 'status'", "\(loop.object.path)")
        // The kill switch: exactly as without LoopHunter, nothing written.
        let off = ReportDirectory("late-off")
        defer { off.remove() }
        let disabled = Self.run(p, dir: off, extra: ["LOOPHUNTER_DISABLE": "1"])
        #expect(disabled.status == 0 && disabled.stdout == plain.stdout && disabled.stderr == plain.stderr)
        #expect(off.fileNames.isEmpty)
    }

    @Test("PyGObject imports under the kill switch and with LoopHunter on (libglib dlopened RTLD_LOCAL by Python)")
    func pyGObjectImport() throws {
        try Native.ensureBuilt()
        let script = ["-c", "from gi.repository import GLib, GObject; print(GLib.MAJOR_VERSION, GObject.Object.__name__)"]
        let plain = HostRun.run([Self.python] + script)
        #expect(plain.status == 0 && plain.stdout == "2 Object\n", "\(plain.stderr)")
        for extra: [String: String?] in [["LOOPHUNTER_DISABLE": "1"], ["LOOPHUNTER_HOOKS": "none"], [:]] {
            let dir = ReportDirectory("late-import")
            defer { dir.remove() }
            let run = HostRun.underPreload([Self.python] + script, dir: dir.path, extra: extra)
            #expect(run.status == 0 && run.stdout == plain.stdout && run.stderr == plain.stderr, "\(extra): \(run.status) \(run.stderr)")
        }
    }

    @Test("timeouts added from JavaScript through introspection are seen: 20,000 GLib.timeout_add calls, not 1")
    func introspectedTimeouts() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("late-timeouts")
        defer { dir.remove() }
        let run = HostRun.underPreload([Self.gjs, Self.late + "/js_timeouts.js", "20000"], dir: dir.path)
        #expect(run.status == 0 && run.stdout == "js-timeouts: fired=20000\n", "\(run.stderr)")
        let timers = try #require(try dir.summaries().first?.timers)
        // All 20,000 are live at once: the first 4,096 fill the timer records, the rest are
        // counted as untracked; together they are every source made.
        #expect(timers.created + timers.untracked >= 20_000, "\(timers)")
        let hooks = try #require(try dir.summaries().first?.hooks)
        #expect((hooks.first { $0.name == "g_module_symbol" }?.calls ?? 0) > 0, "introspection's lookups went through LoopHunter")
    }
}

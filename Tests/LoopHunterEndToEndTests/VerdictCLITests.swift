import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// `loophunter run` and `report` never call a run clean that LoopHunter did not see: the real
/// commands, as a user (or a CI job) runs them, with their real exit statuses. Each blind case is
/// named by its cause; `--fail-on-breach` fails it with status 4.
@Suite("verdicts of run and report")
struct VerdictCLITests {
    /// A program of scripts/build-gtk-programs.sh (built by the test command before the tests).
    static func gtkProgram(_ name: String) throws -> String {
        let path = Native.gtkPrograms + "/" + name
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run scripts/build-gtk-programs.sh")
        return path
    }

    @Test("a program killed while a child of its own runs on: run ends with it, not with the child")
    func killedWithChildLeft() throws {
        try Native.ensureBuilt()
        // The child gets none of the descriptors the shell inherited (above all not the socket
        // Foundation's Process hands the test's own child, which HostRun waits on): only the run
        // itself could be waiting for it. bash: dash cannot close descriptors above 9.
        let detach = "for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done"
        let run = HostRun.cli(["run", "--color", "never", "--", "/bin/bash", "-c",
                               "\(detach); sleep 30 </dev/null >/dev/null 2>&1 & echo $! >&2; kill -TERM $$"], timeout: 25)
        #expect(!run.timedOut, "run waited for the program's child (sleep 30)")
        #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
        #expect(run.stderr.contains(") was killed by SIGTERM"), "\(run.stderr)")
        if let child = run.stderr.split(separator: "\n").first.flatMap({ pid_t($0) }) { kill(child, SIGKILL) }
    }

    @Test("a program killed by a signal is named with the signal, never 'no loops found'")
    func killed() throws {
        try Native.ensureBuilt()
        let segv = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", "/bin/sh", "-c", "kill -SEGV $$"])
        #expect(segv.status == 128 + SIGSEGV, "the program's status comes first: \(segv.stderr)")
        #expect(segv.stderr.contains("not seen: sh (pid "), "\(segv.stderr)")
        #expect(segv.stderr.contains(") was killed by SIGSEGV"), "\(segv.stderr)")
        #expect(!segv.stderr.contains("no loops found"), "\(segv.stderr)")
        let kill9 = HostRun.cli(["run", "--color", "never", "--", "/bin/sh", "-c", "kill -KILL $$"])
        #expect(kill9.status == 128 + SIGKILL && kill9.stderr.contains(") was killed by SIGKILL"), "\(kill9.stderr)")
        #expect(!kill9.stderr.contains("no loops found"))
    }

    @Test("a CI timeout: the program killed by the SIGTERM run passed on is said, with timeout's own status")
    func ciTimeout() throws {
        try Native.ensureBuilt()
        // As a CI job runs it: `timeout` sends SIGTERM to loophunter, which passes it on to the program
        // (the stall scenario runs ~6 s).
        let run = HostRun.run(["/usr/bin/timeout", "2", Native.cli, "run", "--color", "never", "--fail-on-breach", "--",
                               Native.demo, "stall"], timeout: 60)
        #expect(run.status == 124, "timeout's status: \(run.stderr)")
        #expect(run.stderr.contains("not seen: toykit-demo (pid ") && run.stderr.contains(") was killed by SIGTERM"), "\(run.stderr)")
        #expect(!run.stderr.contains("no loops found"), "\(run.stderr)")
    }

    @Test("a program that exits before any event loop: named with its status; --fail-on-breach exits 4")
    func noEventLoop() throws {
        try Native.ensureBuilt()
        let three = HostRun.cli(["run", "--color", "never", "--", "/bin/sh", "-c", "exit 3"])
        #expect(three.status == 3)
        #expect(three.stderr.contains(") exited with status 3 before LoopHunter saw an event loop in it"), "\(three.stderr)")
        #expect(three.stderr.contains("LoopHunter: nothing seen") || three.stderr.contains("LoopHunter: no findings in what was seen"))
        #expect(!three.stderr.contains("no loops found"))
        let gate = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", "/bin/true"])
        #expect(gate.status == 4, "\(gate.stderr)")
        #expect(gate.stderr.contains("not seen: true (pid ") && gate.stderr.contains(") exited with status 0 before LoopHunter saw an event loop"))
        // Formats for machines carry it too, and the terminal still hears it.
        let junit = HostRun.cli(["run", "--format", "junit", "--", "/bin/true"])
        #expect(junit.status == 0 && junit.stderr.contains("loophunter: not seen: true (pid "), "\(junit.stderr)")
    }

    @Test("the preload never loaded: LD_PRELOAD reset by env, a statically linked program")
    func preloadNeverLoaded() throws {
        try Native.ensureBuilt()
        let reset = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", "/usr/bin/env", "LD_PRELOAD=",
                              Native.demo, "healthy"])
        #expect(reset.status == 4, "\(reset.stderr)")
        #expect(reset.stdout.contains("scenario healthy: done"), "the program ran, unwatched")
        #expect(reset.stderr.contains("not seen: env (pid ") && reset.stderr.contains("LD_PRELOAD was reset"), "\(reset.stderr)")
        #expect(!reset.stderr.contains("no loops found"))

        try Rel.ensureBuilt()
        let staticProgram = Rel.path("rel-static")
        let plain = HostRun.run([staticProgram])
        let run = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", staticProgram])
        #expect(run.stderr.contains("not seen: rel-static (pid ") && run.stderr.contains(
            ") exited with status \(plain.status); the preload never loaded into it (it is statically linked), so LoopHunter saw nothing of it."),
            "\(run.stderr)")
        #expect(run.status == (plain.status == 0 ? 4 : plain.status))
    }

    @Test("a GApplication that hands off to the instance already running is explained, with how to watch a new one")
    func handOff() throws {
        try Native.ensureBuilt()
        let gapp = try Self.gtkProgram("lh-gapp")
        let scratch = ReportDirectory("verdict-handoff")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let id = "org.loophunter.VerdictTest"
        let python = """
            import sys, gi
            gi.require_version('Gio', '2.0')
            from gi.repository import Gio
            app = Gio.Application(application_id=sys.argv[1])
            app.connect('activate', lambda a: None)
            sys.exit(app.run([sys.argv[0]]))
            """
        // One private session bus: the first instance runs unwatched; the second is `loophunter run`'s,
        // in C and through PyGObject (which calls GIO through GObject introspection).
        let script = """
            LH_GAPP_READY='\(scratch.path)/ready' '\(gapp)' \(id) 60 & primary=$!
            i=0; while [ ! -f '\(scratch.path)/ready' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
            '\(Native.cli)' run --color never --fail-on-breach -- '\(gapp)' \(id)
            echo "c-status=$?"
            '\(Native.cli)' run --color never -- /usr/bin/python3 -c "$LH_PY" \(id)
            echo "python-status=$?"
            kill $primary; wait
            """
        let run = HostRun.run(["/usr/bin/dbus-run-session", "--", "/bin/sh", "-c", script],
                              environment: ["LH_PY": python], timeout: 180)
        #expect(run.stdout.contains("lh-gapp: primary") && run.stdout.contains("lh-gapp: activated again"), "\(run.stdout)")
        #expect(run.stdout.contains("c-status=4"), "--fail-on-breach fails a hand-off: \(run.stdout)\n\(run.stderr)")
        let sentence = "lh-gapp handed its command line to an instance already running on this D-Bus session (\(id)) and "
            + "exited; LoopHunter watched nothing. Watch a new instance: loophunter run -- dbus-run-session -- \(gapp) \(id) "
            + "(a private session bus), or the app's own new-instance flag if it has one."
        #expect(run.stderr.contains("not seen: " + sentence), "\(run.stderr)")
        #expect(run.stdout.contains("python-status=0"), "\(run.stdout)")
        #expect(run.stderr.contains("handed its command line to an instance already running on this D-Bus session (\(id)) and exited"
                                    + "; LoopHunter watched nothing. Watch a new instance: loophunter run -- dbus-run-session -- "
                                    + "/usr/bin/python3 -c "), "PyGObject's run is seen too: \(run.stderr)")
        #expect(!run.stderr.contains("no loops found"))
    }

    @Test("a program seen to its end is still called clean, also with --fail-on-breach")
    func seen() throws {
        try Native.ensureBuilt()
        let run = HostRun.cli(["run", "--color", "never", "--fail-on-breach", "--", Native.demo, "healthy"])
        #expect(run.status == 0 && run.stderr.contains("LoopHunter: no loops found") && !run.stderr.contains("not seen"),
                "\(run.stderr)")
    }

    @Test("report: a directory with nothing says so and exits 4; reports without summaries warn")
    func reportDirectory() throws {
        let base = ReportDirectory("verdict-report")
        defer { base.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: base.path + "/empty", withIntermediateDirectories: true)
        let empty = HostRun.cli(["report", base.path + "/empty", "--color", "never"])
        #expect(empty.status == 4, "\(empty.stderr)")
        #expect(empty.stdout.hasPrefix("LoopHunter: nothing seen in \(base.path)/empty (0 reports, 0 processes)\n"
                                       + "  not seen: no process summary and no report: LoopHunter saw nothing here"), "\(empty.stdout)")
        #expect(HostRun.cli(["report", base.path + "/empty", "--format", "json"]).status == 4)

        try fm.createDirectory(atPath: base.path + "/reports-only", withIntermediateDirectories: true)
        let file = "report-4101-aaaa0001-000001-layout-storm.json"
        try fm.copyItem(atPath: Fixtures.reports.appendingPathComponent(file).path, toPath: base.path + "/reports-only/" + file)
        let partial = HostRun.cli(["report", base.path + "/reports-only", "--color", "never", "--no-symbolize"])
        #expect(partial.status == 0, "the findings were seen: \(partial.stderr)")
        #expect(partial.stdout.contains("1 finding: 1 layout-storm")
                && partial.stdout.contains("not seen: no process summary was found"), "\(partial.stdout)")
        #expect(HostRun.cli(["report", base.path + "/reports-only", "--fail-on-breach", "--no-symbolize"]).status == 3)
    }

    @Test("a GTK warning that names no widget names the one being laid out when GTK warned")
    func warningNamesLayout() throws {
        try Native.ensureBuilt()
        let program = try Self.gtkProgram("gtk3-layout-warning")
        let dir = ReportDirectory("verdict-warning")
        defer { dir.remove() }
        let run = HostRun.run(["/usr/bin/xvfb-run", "-a", Native.cli, "run", "--dir", dir.path, "--color", "never", "--", program],
                              environment: ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Gtk-WARNING") && run.stderr.contains("attempt to allocate widget with width -5"),
                "still printed: \(run.stderr)")
        #expect(run.stderr.contains("view     GtkWindow 'main-window' > LhWarnBox 'warn-box' (being laid out when Gtk warned)"),
                "\(run.stderr)")
        let warning = try #require(try dir.reports().first { $0.kind == "toolkit-warning" })
        #expect(warning.object.type == "LhWarnBox" && warning.object.name == "warn-box")
        #expect(warning.warning?.objectSource == "layout" && warning.object.address != "0x0")
    }
}

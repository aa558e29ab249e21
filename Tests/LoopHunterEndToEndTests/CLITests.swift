import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The `loophunter` binary: every command, run for real, with the documented exit statuses.
@Suite("loophunter command")
struct CLITests {
    // MARK: run

    @Test("run healthy: exit 0, no loops found")
    func runHealthy() throws {
        try Native.ensureBuilt()
        let run = HostRun.cli(["run", "--color", "never", "--", Native.demo, "healthy"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("LoopHunter: no loops found"))
        #expect(run.stdout.contains("scenario healthy: done"), "the program keeps stdout")
        #expect(run.stderr.contains("reports are in /"))
    }

    @Test("run says when LD_PRELOAD cannot reach the program (statically linked, set-user-ID) and runs it unchanged")
    func runUnreachable() throws {
        try Rel.ensureBuilt()
        let staticProgram = Rel.path("rel-static")
        let plain = HostRun.run([staticProgram])
        let run = HostRun.cli(["run", "--color", "never", "--", staticProgram])
        #expect(run.status == plain.status && run.stdout == plain.stdout, "\(run.stderr)")
        #expect(run.stderr.contains("rel-static is statically linked: LD_PRELOAD cannot reach it"), "\(run.stderr)")
        let dynamic = HostRun.cli(["run", "--color", "never", "--", "/bin/true"])
        #expect(dynamic.status == 0 && !dynamic.stderr.contains("LoopHunter will see nothing"), "\(dynamic.stderr)")

        // Set-user-ID: as root, a copy of /bin/true owned by nobody (the loader then runs it
        // securely and drops LD_PRELOAD), unless the file system is mounted nosuid (then the bit
        // does nothing, LoopHunter loads, and nothing is said).
        guard geteuid() == 0 else { return }
        let dir = ReportDirectory("cli-setuid")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let copy = dir.path + "/setuid-true"
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: copy)
        #expect(chown(copy, 65534, 65534) == 0 && chmod(copy, 0o4755) == 0)
        var fs = statvfs()
        #expect(statvfs(copy, &fs) == 0)
        let nosuid = fs.f_flag & UInt(ST_NOSUID) != 0
        let setuid = HostRun.cli(["run", "--color", "never", "--", copy])
        #expect(setuid.status == 0, "\(setuid.stderr)")
        #expect(setuid.stderr.contains("setuid-true is set-user-ID: the loader ignores LD_PRELOAD") == !nosuid,
                "nosuid: \(nosuid): \(setuid.stderr)")
    }

    @Test("run loop: the finding names the view, its type and the layout function with file:line")
    func runLoop() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cli-loop")
        defer { dir.remove() }
        let run = HostRun.cli(["run", "--dir", dir.path, "--color", "never", "--", Native.demo, "loop"])
        #expect(run.status == 0, "findings alone do not fail without --fail-on-breach: \(run.stderr)")
        #expect(run.stderr.contains("1 finding: 1 layout-storm"))
        #expect(run.stderr.contains("StatusLabel 'status' laid out 101 times"))
        #expect(run.stderr.contains("TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status'"))
        // `where` is the code that re-requested the label's layout (its cause, in-layout): the
        // toolbar's layout marking it dirty, line 39; the storm's stack passes line 42.
        #expect(run.stderr.contains("where    scenario_loop.c:39 in loop_toolbar_layout (toykit-demo)"), "\(run.stderr)")
        #expect(run.stderr.contains("cause    in-layout: tk_view_set_needs_layout on StatusLabel 'status', made while layout ran"))
        #expect(run.stderr.contains("Symbolized with llvm-symbolizer"))
        #expect(try dir.reports().count == 1)

        let gate = HostRun.cli(["run", "--fail-on-breach", "--threshold", "50", "--color", "never", "--", Native.demo, "loop"])
        #expect(gate.status == 3)
        #expect(gate.stderr.contains("laid out 51 times"), "--threshold reaches the preload")
    }

    @Test("run passes exit statuses and signals through, and keeps LD_PRELOAD")
    func runStatus() throws {
        try Native.ensureBuilt()
        #expect(HostRun.cli(["run", "--", "/bin/sh", "-c", "exit 7"]).status == 7)
        #expect(HostRun.cli(["run", "--", "/bin/sh", "-c", "kill -TERM $$"]).status == 128 + 15)
        let preload = HostRun.cli(["run", "--", "/bin/sh", "-c", "echo \"$LD_PRELOAD\""], environment: ["LD_PRELOAD": "libm.so.6"])
        #expect(preload.stdout.hasSuffix("/libloophunter.so:libm.so.6\n"), "prepended, never clobbered: \(preload.stdout)")

        let missing = HostRun.cli(["run", "--", "/nonexistent/app"])
        #expect(missing.status == 127 && missing.stderr.contains("cannot run /nonexistent/app: not found"))
        let unnamed = HostRun.cli(["run", "--", "no-such-program-anywhere"])
        #expect(unnamed.status == 127 && unnamed.stderr.contains("not found on PATH"))
        let scratch = ReportDirectory("cli-noexec")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scratch.path + "/script", contents: Data("#!/bin/sh\n".utf8))
        #expect(HostRun.cli(["run", "--", scratch.path + "/script"]).status == 126)
    }

    @Test("run forwards a signal sent to loophunter to the program")
    func runForwardsSignals() throws {
        try Native.ensureBuilt()
        let scratch = ReportDirectory("cli-signal")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let ready = scratch.path + "/ready"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Native.cli)
        // The program exits 42 on SIGTERM: only a forwarded signal can make loophunter exit 42.
        process.arguments = ["run", "--dir", scratch.path + "/lh", "--", "/bin/sh", "-c",
                             "trap 'exit 42' TERM; touch '\(ready)'; while :; do sleep 0.05; done"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithDefaultSignalMask()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready) { usleep(25_000) }
        #expect(FileManager.default.fileExists(atPath: ready))
        kill(process.processIdentifier, SIGTERM)
        let watchdog = Watchdog()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { if watchdog.fire() { kill(pid, SIGKILL) } }
        process.waitUntilExit()
        #expect(watchdog.disarm())
        #expect(process.terminationStatus == 42)
    }

    @Test("run rejects bad options with a message that says how to fix them")
    func runValidation() {
        let none = HostRun.cli(["run"])
        #expect(none.status == 64 && none.stderr.contains("give the program to run after --"))
        let threshold = HostRun.cli(["run", "--threshold", "1", "--", "/bin/true"])
        #expect(threshold.status == 64 && threshold.stderr.contains("--threshold must be between 2 and 16000000 (got 1)"))
        let hooks = HostRun.cli(["run", "--hooks", "layout,bogus", "--", "/bin/true"])
        #expect(hooks.status == 64 && hooks.stderr.contains("unknown family bogus"))
        let format = HostRun.cli(["run", "--format", "pdf", "--", "/bin/true"])
        #expect(format.status == 64 && format.stderr.contains("pdf"))
        let preload = HostRun.cli(["run", "--preload", "/nonexistent.so", "--", "/bin/true"])
        #expect(preload.status == 2 && preload.stderr.contains("--preload /nonexistent.so: no such readable file"))
    }

    // MARK: report

    @Test("report: every format, to stdout and to a file")
    func reportFormats() throws {
        let dir = Fixtures.reports.path
        for format in OutputFormat.allCases {
            let run = HostRun.cli(["report", dir, "--format", format.rawValue])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.count > 200, "\(format) printed \(run.stdout.count) bytes")
        }
        let out = ReportDirectory("cli-out")
        defer { out.remove() }
        try FileManager.default.createDirectory(atPath: out.path, withIntermediateDirectories: true)
        let html = HostRun.cli(["report", dir, "--format", "html", "-o", out.path + "/lh.html"])
        #expect(html.status == 0 && html.stdout.isEmpty)
        #expect((try? String(contentsOfFile: out.path + "/lh.html", encoding: .utf8))?.contains("<svg") == true)
        #expect(HostRun.cli(["report", dir, "--fail-on-breach"]).status == 3)
        let text = HostRun.cli(["report", dir, "--color", "always"]).stdout
        #expect(text.contains("\u{1B}["))
        let noColor = HostRun.cli(["report", dir, "--color", "auto"], environment: ["NO_COLOR": "1"]).stdout
        #expect(!noColor.contains("\u{1B}"), "not a TTY, and NO_COLOR")
        // The fixtures' modules are not on this machine: names fall back to the reports', and say so.
        #expect(text.contains("is not on this machine"))
    }

    /// Bad inputs: (label, set-up, expected status, expected message).
    @Test("report: bad inputs are named, skipped, and give the documented status")
    func reportBadInputs() throws {
        let base = ReportDirectory("cli-bad")
        defer { base.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: base.path + "/empty", withIntermediateDirectories: true)
        let empty = HostRun.cli(["report", base.path + "/empty"])
        #expect(empty.status == 4 && empty.stdout.contains("nothing seen in \(base.path)/empty (0 reports, 0 processes)"),
                "LoopHunter saw nothing: never a clean result (VerdictCLITests)")

        let missing = HostRun.cli(["report", base.path + "/missing"])
        #expect(missing.status == 2 && missing.stderr.contains("no such directory"))
        _ = fm.createFile(atPath: base.path + "/plain-file", contents: Data("x".utf8))
        let notDir = HostRun.cli(["report", base.path + "/plain-file"])
        #expect(notDir.status == 2 && notDir.stderr.contains("not a directory"))
        try fm.createSymbolicLink(atPath: base.path + "/loop-a", withDestinationPath: base.path + "/loop-b")
        try fm.createSymbolicLink(atPath: base.path + "/loop-b", withDestinationPath: base.path + "/loop-a")
        let loopDir = HostRun.cli(["report", base.path + "/loop-a"])
        #expect(loopDir.status == 2 && loopDir.stderr.contains("symlink loop"))

        // One good report among bad files.
        let dir = base.path + "/mixed"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let good = Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json")
        try fm.copyItem(atPath: good.path, toPath: dir + "/report-good.json")
        let text = try String(contentsOf: good, encoding: .utf8)
        _ = fm.createFile(atPath: dir + "/report-empty.json", contents: Data())
        _ = fm.createFile(atPath: dir + "/report-truncated.json", contents: Data(text.prefix(text.count / 2).utf8))
        _ = fm.createFile(atPath: dir + "/notes.txt", contents: Data("not json\n".utf8))
        _ = fm.createFile(atPath: dir + "/report-future.json",
                      contents: Data(text.replacingOccurrences(of: "\"version\": \"1.0\"", with: "\"version\": \"2.0\"").utf8))
        _ = fm.createFile(atPath: dir + "/report-huge.json", contents: nil)
        let big = try #require(FileHandle(forWritingAtPath: dir + "/report-huge.json"))
        try big.truncate(atOffset: 50 * 1024 * 1024)
        try big.close()
        try fm.createSymbolicLink(atPath: dir + "/report-loop.json", withDestinationPath: dir + "/report-loop.json")
        _ = fm.createFile(atPath: dir + "/.report-inflight.json.tmp", contents: Data("{".utf8))

        let run = HostRun.cli(["report", dir, "--color", "never", "--no-symbolize"])
        #expect(run.status == 1, "some files skipped: \(run.stderr)")
        #expect(run.stdout.contains("1 finding: 1 layout-storm"), "the good report is still reported")
        let messages = run.stderr.split(separator: "\n").map(String.init)
        func said(_ file: String, _ words: String) -> Bool {
            messages.contains { $0.contains("\(dir)/\(file)") && $0.contains(words) }
        }
        #expect(said("report-empty.json", "empty file"))
        #expect(said("report-truncated.json", "not valid JSON"))
        #expect(said("notes.txt", "not valid JSON"))
        #expect(said("report-future.json", "version 2.0 is not supported") && said("report-future.json", "1.x"))
        #expect(said("report-huge.json", "52428800 bytes is larger than"))
        #expect(said("report-loop.json", "symlink loop"))
        #expect(!run.stderr.contains(".report-inflight"), "temporaries are not read")
        #expect(run.stdout.contains("6 files skipped"))
        #expect(fm.fileExists(atPath: dir + "/report-empty.json"), "input is never deleted")
    }

    @Test("report: an unreadable file is named and skipped")
    func reportUnreadable() throws {
        let base = ReportDirectory("cli-unreadable")
        defer { base.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: base.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try fm.copyItem(atPath: Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json").path,
                        toPath: base.path + "/report-secret.json")
        chmod(base.path + "/report-secret.json", 0)
        // root reads anything: run the command as nobody then (setpriv, util-linux).
        let asNobody = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let run = HostRun.run(asNobody + [Native.cli, "report", base.path, "--no-symbolize"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("report-secret.json: cannot be read (Permission denied)"), "\(run.stderr)")
    }

    // MARK: watch, doctor, help

    @Test("watch prints each new report and summary, and stops when the watched process exits")
    func watch() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cli-watch")
        defer { dir.remove() }
        let sentinel = Process()
        sentinel.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sentinel.arguments = ["3"]
        try sentinel.runWithDefaultSignalMask()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lh-watch-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Native.cli)
        watcher.arguments = ["watch", dir.path, "--until-exit", String(sentinel.processIdentifier), "--color", "never"]
        watcher.standardOutput = try FileHandle(forWritingTo: out)
        watcher.standardError = FileHandle.nullDevice
        try watcher.runWithDefaultSignalMask()
        for _ in 0..<100 where !dir.exists { usleep(20_000) } // watch creates the directory
        usleep(200_000)
        let app = HostRun.underPreload([Native.demo, "loop"], dir: dir.path)
        #expect(app.status == 0)
        let watchdog = Watchdog()
        let pid = watcher.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if watchdog.fire() { kill(pid, SIGKILL) } }
        watcher.waitUntilExit()
        #expect(watchdog.disarm(), "watch ended when the process it waited for exited")
        #expect(watcher.terminationStatus == 0)
        let printed = try String(contentsOf: out, encoding: .utf8)
        #expect(printed.contains("✖ layout-storm  StatusLabel 'status' laid out 101 times"))
        #expect(printed.contains("scenario_loop.c:39 in loop_toolbar_layout"))
        // The summary line, printed once, as the process left it (the file was kept current while
        // it ran): its toolkit, iterations, layouts and the objects it tracked.
        #expect(printed.contains("toykit-demo: toolkit toykit; 6 iterations, 9998 layouts, 3 objects (widgets) of 3 classes tracked"),
                "the summary line")
        #expect(printed.components(separatedBy: "toykit-demo: toolkit toykit;").count == 2, "one summary line: \(printed)")
    }

    @Test("doctor checks the set-up; a missing preload fails it with a fix")
    func doctor() throws {
        try Native.ensureBuilt()
        let ok = HostRun.cli(["doctor", "--color", "never"])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("✓ preload") && ok.stdout.contains("needs libc.so.6)"), "\(ok.stdout)")
        #expect(ok.stdout.contains("✓ libunwind") && ok.stdout.contains("symbolizer"))
        // Qt 5 and Qt 6 are installed by the test packages (scripts/setup.sh): their versions.
        #expect(ok.stdout.contains("✓ Qt 5") && ok.stdout.contains("libQt5Core.so.5 5.") &&
                ok.stdout.contains("✓ Qt 6") && ok.stdout.contains("libQt6Core.so.6 6."), "\(ok.stdout)")
        let broken = HostRun.cli(["doctor", "--preload", "/nonexistent/libloophunter.so", "--color", "never"])
        #expect(broken.status == 1 && broken.stdout.contains("✗ preload") && broken.stdout.contains("→"))
    }

    @Test("every command's help shows examples; completion scripts are generated")
    func help() {
        for command in ["run", "report", "watch", "doctor"] {
            let help = HostRun.cli([command, "--help"])
            #expect(help.status == 0 && help.stdout.contains("Example"), "\(command) --help")
        }
        #expect(HostRun.cli(["--help"]).stdout.contains("Exit status"))
        for shell in ["bash", "zsh", "fish"] {
            let script = HostRun.cli(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.stdout.contains("loophunter") && script.stdout.contains("report"))
        }
        #expect(HostRun.cli(["--version"]).stdout == "0.1.0\n")
    }
}

import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// The summary keeps what the process saw, however it leaves (issue 16): kept current while it
/// runs ("running"), written in _exit ("_exit") and before an exec ("exec"), never by a vfork child;
/// always written for a child of `loophunter run`; the toolkits named, supported or not; destroyed
/// widgets kept among the top objects; the window list complete up to its bound, with exact counts.
@Suite("Summaries keep what was seen")
struct SummaryStateTests {
    /// The one summary of `dir` written by process `pid` (nil when there is none).
    static func summary(_ dir: ReportDirectory, pid: Int? = nil) throws -> Summary? {
        try dir.summaries().first { pid == nil || $0.process.pid == pid }
    }

    // MARK: leaving

    @Test("a process that leaves through _exit or _Exit leaves its summary, state _exit, with its figures",
          arguments: ["_exit", "_Exit"])
    func leavesThroughExit(_ how: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("exit")
        defer { dir.remove() }
        let run = HostRun.run([Native.leave, how, "300"],
                              environment: ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path])
        #expect(run.status == 7, "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "no summary in \(dir.fileNames)")
        #expect(summary.state == "_exit")
        #expect(summary.version == SchemaVersion.current.description)
        #expect(summary.iterations > 5)
        #expect(summary.layoutCalls > 5)
        #expect(summary.updated == summary.ended)
        #expect(summary.toolkits?.map(\.name) == ["toykit"])
        #expect(summary.toolkits?.first?.supported == true)
    }

    @Test("a process killed with SIGKILL keeps its last summary, state running, with nonzero iterations")
    func killed() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("kill")
        defer { dir.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Native.leave)
        process.arguments = ["run", "100"]
        // Kept current every second (off by default until its cross-thread reads are TSan-clean).
        process.environment = ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path, "PATH": "/usr/bin:/bin",
                               "LOOPHUNTER_SUMMARY_INTERVAL_MS": "1000"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // ~1.5 s of running; a loaded machine may need longer for the first version to appear.
        Thread.sleep(forTimeInterval: 1.5)
        let deadline = Date().addingTimeInterval(60)
        while dir.fileNames.first(where: { $0.hasPrefix("summary-") }) == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        let summary = try #require(try Self.summary(dir, pid: Int(process.processIdentifier)), "\(dir.fileNames)")
        #expect(summary.state == "running")
        #expect(summary.iterations > 0)
        #expect(!dir.fileNames.contains { $0.hasSuffix(".tmp") }, "no temporary left: \(dir.fileNames)")
    }

    @Test("an exec leaves the summary of the program it replaced, state exec", arguments: ["exec", "execl"])
    func exec(_ how: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("exec")
        defer { dir.remove() }
        let run = HostRun.run([Native.leave, how, "300"],
                              environment: ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path])
        #expect(run.status == 0, "/bin/true's status: \(run.stderr)")
        let summaries = try dir.summaries()
        #expect(summaries.count == 1, "/bin/true runs no loop: no summary of its own; \(dir.fileNames)")
        let summary = try #require(summaries.first)
        #expect(summary.state == "exec")
        #expect(summary.process.executable.hasSuffix("lh-leave"))
        #expect(summary.iterations > 5)
    }

    @Test("after an exec that failed the process runs on and its summary says running again")
    func execFailed() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("exec-fail")
        defer { dir.remove() }
        let process = Process()
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: Native.leave)
        process.arguments = ["exec-fail", "300"]
        // An interval of an hour: the version after the failed exec can only be the one it asks for.
        process.environment = ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path,
                               "LOOPHUNTER_SUMMARY_INTERVAL_MS": "3600000"]
        process.standardOutput = out
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var text = ""
        while !text.contains("exec failed") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let ticks = try #require(text.split(separator: " ").firstIndex(of: "after").map { i in
            Int(text.split(separator: " ")[i + 1]) ?? 0
        }, "\(text)")
        var summary: Summary?
        let deadline = Date().addingTimeInterval(60)
        repeat {
            Thread.sleep(forTimeInterval: 0.05)
            summary = try? Self.summary(dir)
        } while (summary?.state != "running" || (summary?.iterations ?? 0) < UInt64(ticks)) && Date() < deadline
        #expect(summary?.state == "running")
        #expect((summary?.iterations ?? 0) >= UInt64(ticks), "rewritten after the exec failed (\(ticks) ticks)")
    }

    @Test("a vfork child that calls _exit does not overwrite its parent's summary")
    func vforkChild() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("vfork")
        defer { dir.remove() }
        // Written only when the process leaves: the child's _exit would be the only other writer.
        let run = HostRun.run([Native.leave, "vfork", "300"],
                              environment: ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path,
                                            "LOOPHUNTER_SUMMARY_INTERVAL_MS": "0"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("vfork child"))
        let summaries = try dir.summaries()
        #expect(summaries.count == 1, "\(dir.fileNames)")
        #expect(summaries.first?.state == "exited")
        #expect(summaries.first?.iterations ?? 0 > 20, "the parent's figures, after the vfork")
    }

    // MARK: started by loophunter run

    @Test("a child of loophunter run always leaves a summary, even without an event loop; without run, none")
    func launcherChild() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("launcher")
        defer { dir.remove() }
        let run = HostRun.run([Native.cli, "run", "--dir", dir.path, "--color", "never", "--", "/bin/true"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "\(dir.fileNames)")
        #expect(summary.state == "exited")
        #expect(summary.iterations == 0)
        #expect(summary.toolkits == [])
        #expect(summary.config["LOOPHUNTER_LAUNCHER_PID"] != nil)
        let report = HostRun.run([Native.cli, "report", dir.path, "--color", "never"])
        #expect(report.stdout.contains("true: no known toolkit; 0 iterations, 0 layouts"), "\(report.stdout)")

        let plain = ReportDirectory("no-launcher")
        defer { plain.remove() }
        let direct = HostRun.run(["/bin/true"], environment: ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": plain.path])
        #expect(direct.status == 0)
        #expect(try plain.summaries().isEmpty, "a process that saw nothing, not started by run: \(plain.fileNames)")
    }

    // MARK: toolkits, objects, windows (GTK and Tk under Xvfb)

    @Test("GTK programs name their toolkit; destroyed widgets stay among the top objects, marked",
          arguments: ["gtk3-reuse", "gtk4-reuse"])
    func destroyedWidgets(_ name: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("destroyed")
        defer { dir.remove() }
        let run = GTKRun.run([Native.gtkPrograms + "/" + name], dir: dir.path)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "\(dir.fileNames)")
        let gtk = name.hasPrefix("gtk3") ? "GTK 3" : "GTK 4"
        #expect(summary.toolkits?.map(\.name) == [gtk])
        #expect(summary.toolkits?.first?.supported == true)
        #expect(summary.toolkits?.first?.library.contains(name.hasPrefix("gtk3") ? "libgtk-3.so" : "libgtk-4.so") == true)
        // 24 labels, each laid out for 3 frames, 23 of them destroyed before exit.
        let destroyed = (summary.topObjects ?? []).filter { $0.destroyed == true }
        #expect(destroyed.count >= 23 && destroyed.count <= 32, "\(destroyed.count) destroyed objects kept")
        #expect(destroyed.allSatisfy { $0.type == "LhLabel" && $0.calls > 0 })
        #expect((summary.objectsDestroyed ?? 0) >= 23)
        #expect((summary.objectsTracked ?? 0) >= 25, "24 labels and their box at least")
        #expect((summary.classesTracked ?? 0) >= 3)
        let live = (summary.topObjects ?? []).filter { $0.destroyed == false }
        #expect(live.contains { $0.type == "LhLabel" }, "the last label, alive at exit")
        if let allocators = summary.alloc?.topAllocators {
            #expect(allocators.contains { $0.destroyed == true && $0.type == "LhLabel" }, "\(allocators)")
        }
    }

    @Test("a toolkit LoopHunter does not support is named, and the report says its layouts are not counted")
    func unsupportedToolkit() throws {
        try Native.ensureBuilt()
        let program = Native.gtkPrograms + "/tk-hello"
        try #require(FileManager.default.isExecutableFile(atPath: program),
                     "tk-hello is not built: install tk-dev (scripts/setup.sh test) and run scripts/build-gtk-programs.sh")
        let dir = ReportDirectory("tk")
        defer { dir.remove() }
        let run = HostRun.run(["/usr/bin/xvfb-run", "-a", Native.cli, "run", "--dir", dir.path, "--color", "never", "--", program],
                              timeout: 120)
        #expect(run.stdout.contains("tk-hello: done"), "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "a child of run always has one: \(dir.fileNames)")
        #expect(summary.toolkits?.map(\.name) == ["Tk"])
        #expect(summary.toolkits?.first?.supported == false)
        let report = HostRun.run([Native.cli, "report", dir.path, "--color", "never"])
        #expect(report.stdout.contains("toolkit Tk (not supported: layouts are not counted)"), "\(report.stdout)")
    }

    @Test("hidden windows and popups do not crowd out a dialog GTK shows itself; the counts add up")
    func hiddenWindows() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("windows-hidden")
        defer { dir.remove() }
        let run = GTKRun.run([Native.gtkPrograms + "/gtk3-windows", "hidden"], dir: dir.path,
                               extra: ["LOOPHUNTER_WINDOW_MS": "600000"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "\(dir.fileNames)")
        let windows = try #require(summary.windows)
        // GTK shows the dialog from inside itself (no show LoopHunter sees): it is timed from its map.
        #expect(windows.contains { $0.title == "Open" && $0.painted && $0.since == "map" }, "\(windows)")
        #expect(windows.contains { $0.title == "main" && $0.painted })
        #expect(summary.windowsNeverShown == 300)
        #expect((summary.windowsPopups ?? 0) >= 40, "the menus' popup windows")
        #expect(summary.windowsDropped == 0 && summary.windowsTruncated == false)
        #expect(UInt64(windows.count) + (summary.windowsNeverShown ?? 0) + (summary.windowsDropped ?? 0) == summary.windowsSeen)
    }

    @Test("the window list is complete up to its bound and counts exactly what it drops")
    func windowBound() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("windows-many")
        defer { dir.remove() }
        let run = GTKRun.run([Native.gtkPrograms + "/gtk3-windows", "many"], dir: dir.path,
                               extra: ["LOOPHUNTER_WINDOW_MS": "600000"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try Self.summary(dir), "\(dir.fileNames)")
        let windows = try #require(summary.windows)
        let limit = try #require(summary.windowsLimit)
        #expect(UInt64(windows.count) == limit)
        #expect(summary.windowsSeen == 271, "the main window and 270 shown")
        #expect(summary.windowsDropped == 271 - limit)
        #expect(summary.windowsTruncated == true)
        #expect(windows.first?.title == "main")
        #expect(UInt64(windows.count) + (summary.windowsNeverShown ?? 0) + (summary.windowsDropped ?? 0) == summary.windowsSeen)
    }
}

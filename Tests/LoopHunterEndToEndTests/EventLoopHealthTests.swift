import Foundation
import Testing
import LoopHunterTestSupport

/// Event-loop health end to end: the toykit scenarios `stall`, `slow-window`, `timer-storm` and
/// `timer-dangling`, and the GTK 3 / GTK 4 programs `gtk[34]-health`, run under the preload; the
/// assertions read the report and summary files as JSON (the schema 1.3 fields, documented in
/// docs/report-schema.md) and symbolize their frames with llvm-symbolizer.
@Suite("event-loop health: stalls, slow windows, timers")
struct EventLoopHealthTests {
    typealias JSON = [String: Any]

    /// Runs a toykit scenario under the preload; the program's own output must be as without it.
    static func scenario(_ name: String, extra: [String: String?] = [:]) throws -> (RawOutput, HostRun) {
        try Native.ensureBuilt()
        let dir = ReportDirectory("health-\(name)")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, name], dir: dir.path, extra: extra, timeout: 120)
        #expect(run.status == 0 && !run.timedOut, "\(name): \(run.status) \(run.stderr)")
        #expect(run.loophunterLines.isEmpty, "unexpected LoopHunter messages: \(run.loophunterLines)")
        return (try RawOutput.read(dir), run)
    }

    @Test("stall: the stuck stack, sampled by signal while computing and by a scan while asleep, with the whole duration")
    func stall() throws {
        let (out, _) = try Self.scenario("stall")
        let stalls = out.kind("stall")
        #expect(out.reports.count == 2 && stalls.count == 2, "\(out.reports.map { $0["kind"] ?? "" })")
        for report in stalls {
            let stall = try #require(report["stall"] as? JSON)
            #expect(stall["ongoing"] as? Bool == false)
            #expect(RawReports.int(stall["duration_ms"]) >= 2000 && RawReports.int(stall["duration_ms"]) == RawReports.int(report["count"]))
            #expect(RawReports.int(report["threshold"]) == 2000 && report["count_unit"] as? String == "ms in one iteration")
            #expect(RawReports.int(stall["sampled_after_ms"]) >= 1500, "sampled while stuck, past 3/4 of the limit")
            #expect((report["hook"] as? JSON)?["family"] as? String == "stall")
            #expect((report["object"] as? JSON)?["type"] as? String == "(event loop)")
        }
        let bySignal = try #require(stalls.first { ($0["stall"] as? JSON)?["method"] as? String == "signal" })
        #expect((bySignal["stall"] as? JSON)?["syscall"] is NSNull, "it was running, not in a system call")
        let stack = try Symbolizer.functions(bySignal)
        #expect(stack.contains("stall_rebuild_index"), "\(stack)")
        let byScan = try #require(stalls.first { ($0["stall"] as? JSON)?["method"] as? String == "scan" })
        let syscall = (byScan["stall"] as? JSON)?["syscall"] as? String
        #expect(syscall == "clock_nanosleep" || syscall == "nanosleep", "\(syscall ?? "nil")")
        let scanned = try Symbolizer.functions(byScan)
        #expect(scanned.contains("stall_wait_for_disk"), "\(scanned)")

        let stalled = try #require(out.summary["stalls"] as? JSON)
        #expect(RawReports.int(stalled["count"]) == 2 && RawReports.int(stalled["longest_ms"]) >= 2000)
        let watchdog = try #require(stalled["watchdog"] as? JSON)
        #expect(watchdog["running"] as? Bool == true && RawReports.int(watchdog["signals"]) >= 1 && RawReports.int(watchdog["scans"]) >= 1)
    }

    @Test("a stall still going after 5 x LOOPHUNTER_STALL_MS is written by the watchdog as ongoing, once")
    func ongoing() throws {
        let (out, _) = try Self.scenario("stall", extra: ["LOOPHUNTER_STALL_MS": "300"])
        let stalls = out.kind("stall")
        #expect(stalls.count == 2, "one report per stall: \(stalls.count)")
        for report in stalls {
            let stall = try #require(report["stall"] as? JSON)
            #expect(stall["ongoing"] as? Bool == true)
            #expect(RawReports.int(stall["duration_ms"]) >= 1500 && RawReports.int(stall["duration_ms"]) < 2500)
            #expect((report["history"] as? [Any])?.isEmpty == true, "written by the watchdog: no history of the thread")
            #expect((report["thread"] as? JSON)?["name"] as? String == "toykit-demo")
        }
    }

    @Test("slow-window: the time from mapping to the first frame, the slowest callbacks on the way, where the window was made")
    func slowWindow() throws {
        let (out, _) = try Self.scenario("slow-window")
        let report = try #require(out.kind("slow-window").first, "\(out.reports.map { $0["kind"] ?? "" })")
        #expect(out.kind("slow-window").count == 1)
        #expect((report["object"] as? JSON)?["type"] as? String == "TkWindow" && (report["object"] as? JSON)?["name"] as? String == "main")
        #expect(RawReports.int(report["count"]) >= 2700 && RawReports.int(report["threshold"]) == 2000)
        let window = try #require(report["window"] as? JSON)
        #expect(window["since"] as? String == "map" && window["painted"] as? Bool == true)
        let steps = try #require(window["slowest"] as? [JSON])
        #expect(steps.count == 3)
        #expect(try steps.map { try Symbolizer.callback($0["callback"]) ?? "?" } ==
                ["slow_window_build_rows", "slow_window_apply_theme", "slow_window_load_settings"])
        #expect(steps.map { $0["signal"] as? String ?? "" } == ["timer", "timer", "idle"])
        #expect(RawReports.int(steps.first?["duration_us"]) >= 1_800_000)
        #expect(try Symbolizer.functions(report).contains("scenario_slow_window"), "created there")

        let windows = try #require(out.summary["windows"] as? [JSON])
        #expect(windows.count == 1 && windows.first?["painted"] as? Bool == true)
        #expect(RawReports.int(windows.first?["time_to_first_frame_ms"]) >= 2700)
    }

    @Test("a healthy program: every window painted at once, no stall, no timer left, nothing reported")
    func healthy() throws {
        let (out, _) = try Self.scenario("healthy")
        #expect(out.reports.isEmpty, "\(out.reports.map { $0["kind"] ?? "" })")
        let windows = try #require(out.summary["windows"] as? [JSON])
        #expect(!windows.isEmpty && windows.allSatisfy { $0["painted"] as? Bool == true && RawReports.int($0["time_to_first_frame_ms"]) < 2000 })
        #expect(RawReports.int((out.summary["stalls"] as? JSON)?["count"]) == 0)
        let timers = try #require(out.summary["timers"] as? JSON)
        #expect(RawReports.int(timers["created"]) > 0 && RawReports.int(timers["fires"]) > 0 && RawReports.int(timers["live"]) == 0)
    }

    @Test("timer-storm: live timers growing iteration after iteration, and one idle firing 300 times in a row with the loop never sleeping; 300 one-shot timers sharing a callback are none")
    func timerStorm() throws {
        let (out, _) = try Self.scenario("timer-storm")
        let storms = out.kind("timer-storm")
        #expect(out.reports.count == 2 && storms.count == 2, "\(out.reports.map { $0["kind"] ?? "" })")
        let growth = try #require(storms.first { (($0["timer"] as? JSON)?["storm"] as? JSON)?["reason"] as? String == "growth" })
        #expect(RawReports.int(growth["count"]) >= 500 && growth["count_unit"] as? String == "timer sources added in a growth run")
        #expect(try Symbolizer.callback((growth["timer"] as? JSON)?["callback"]) == "timer_storm_tooltip")
        #expect(try Symbolizer.functions(growth).contains("timer_storm_arm_tooltips"))
        let fires = try #require(storms.first { (($0["timer"] as? JSON)?["storm"] as? JSON)?["reason"] as? String == "fires" })
        #expect(RawReports.int(fires["count"]) == 201 && RawReports.int(fires["threshold"]) == 200)
        #expect(fires["count_unit"] as? String == "fires of one source in a row, its loop never sleeping")
        let timer = try #require(fires["timer"] as? JSON)
        #expect(RawReports.int((timer["storm"] as? JSON)?["fires_in_a_row"]) == 201)
        #expect(RawReports.int(timer["fires"]) == 201, "the one source fired that often itself")
        #expect(timer["source"] as? String == "tk_loop_add_idle")
        #expect(try Symbolizer.callback(timer["callback"]) == "timer_storm_poll_sync")
        #expect(try Symbolizer.functions(fires).contains("timer_storm_start_sync"))
        // The 300 zero-delay row updates (one callback, 300 one-shot sources) all fired, unreported.
        let summary = try #require(out.summary["timers"] as? JSON)
        #expect(RawReports.int(summary["fires"]) >= 300 + 300)
    }

    @Test("timer-outlives-target: reported at the free() with where it was freed and where the timer was made")
    func timerDangling() throws {
        let (out, _) = try Self.scenario("timer-dangling")
        let report = try #require(out.kind("timer-outlives-target").first, "\(out.reports.map { $0["kind"] ?? "" })")
        #expect(out.reports.count == 1)
        let timer = try #require(report["timer"] as? JSON)
        #expect(try Symbolizer.callback(timer["callback"]) == "timer_dangling_progress")
        #expect(timer["data"] as? String == (report["object"] as? JSON)?["address"] as? String)
        #expect(RawReports.int(timer["interval_ms"]) == 50 && RawReports.int(timer["fires"]) >= 1)
        let stack = try Symbolizer.functions(report)
        #expect(stack.contains("timer_dangling_finish"), "freed there: \(stack)")
        #expect(try Symbolizer.functions(report, "created_frames").contains("timer_dangling_start"))
        #expect(RawReports.int((out.summary["timers"] as? JSON)?["outlived"]) == 1)
    }

    @Test("with the stall, window and timer families off: nothing of them, and their summary sections null",
          arguments: ["stall", "slow-window", "timer-storm", "timer-dangling"])
    func familiesOff(_ scenario: String) throws {
        let (out, _) = try Self.scenario(scenario, extra: ["LOOPHUNTER_HOOKS": "layout,alloc,loop,log"])
        #expect(out.reports.isEmpty, "\(out.reports.map { $0["kind"] ?? "" })")
        #expect(out.summary["stalls"] is NSNull && out.summary["windows"] is NSNull && out.summary["timers"] is NSNull)
    }

    // ---- GTK 3 and GTK 4 ----------------------------------------------------------------------

    static func gtk(_ version: Int, _ mode: String) throws -> RawOutput {
        try Native.ensureBuilt()
        let program = "\(Native.gtkPrograms)/gtk\(version)-health"
        let plain = GTKRun.run([program, mode], dir: nil)
        #expect(plain.status == 0 && !plain.timedOut, "\(plain.stderr)")
        let dir = ReportDirectory("health-gtk\(version)-\(mode)")
        defer { dir.remove() }
        let traced = GTKRun.run([program, mode], dir: dir.path)
        #expect(traced.status == plain.status && traced.stdout == plain.stdout)
        #expect(GTKRun.normalized(traced.stderr) == GTKRun.normalized(plain.stderr))
        return try RawOutput.read(dir)
    }

    @Test("GTK: a realize handler delaying the first frame is a slow-window naming the signal", arguments: [3, 4])
    func gtkSlowWindow(_ version: Int) throws {
        let out = try Self.gtk(version, "slow-window")
        let report = try #require(out.kind("slow-window").first, "\(out.reports.map { $0["kind"] ?? "" })")
        #expect((report["object"] as? JSON)?["type"] as? String == "GtkWindow")
        let window = try #require(report["window"] as? JSON)
        #expect(window["title"] as? String == "Preferences" && window["painted"] as? Bool == true)
        #expect(RawReports.int(report["count"]) >= 2500)
        let steps = try #require(window["slowest"] as? [JSON])
        #expect(steps.contains { $0["signal"] as? String == "realize" && $0["object_type"] as? String == "GtkWindow" &&
                RawReports.int($0["duration_us"]) >= 2_500_000 }, "\(steps)")
        #expect(try Symbolizer.functions(report).contains("main"), "created in main")
    }

    @Test("GTK: a click handler sleeping on the UI thread is a stall stuck in that handler", arguments: [3, 4])
    func gtkBlockedHandler(_ version: Int) throws {
        let out = try Self.gtk(version, "blocked-handler")
        let stall = try #require(out.kind("stall").first, "\(out.reports.map { $0["kind"] ?? "" })")
        #expect(out.kind("stall").count == 1)
        let stack = try Symbolizer.functions(stall)
        #expect(stack.contains("health_save_clicked"), "\(stack)")
        #expect(RawReports.int((stall["stall"] as? JSON)?["duration_ms"]) >= 2500)
    }

    @Test("GTK: g_free of a live timeout's data is reported once; the timeout that freed it (returning FALSE) is not",
          arguments: [3, 4])
    func gtkDanglingTimeout(_ version: Int) throws {
        let out = try Self.gtk(version, "dangling-timeout")
        #expect(out.reports.count == 1, "\(out.reports.map { $0["kind"] ?? "" })")
        let report = try #require(out.kind("timer-outlives-target").first)
        let timer = try #require(report["timer"] as? JSON)
        #expect(timer["source"] as? String == "g_timeout_add" && RawReports.int(timer["interval_ms"]) == 50)
        #expect(try Symbolizer.callback(timer["callback"]) == "on_progress")
        #expect(try Symbolizer.functions(report).contains("health_download_done"))
        #expect(try Symbolizer.functions(report, "created_frames").contains("main"))
    }

    @Test("GTK: a healthy program has its window listed, painted, and nothing reported", arguments: [3, 4])
    func gtkHealthy(_ version: Int) throws {
        let out = try Self.gtk(version, "healthy")
        #expect(out.reports.isEmpty, "\(out.reports.map { $0["kind"] ?? "" })")
        let windows = try #require(out.summary["windows"] as? [JSON])
        #expect(windows.contains { $0["type"] as? String == "GtkWindow" && $0["painted"] as? Bool == true &&
                $0["title"] as? String == "Preferences" })
        let timers = try #require(out.summary["timers"] as? JSON)
        #expect(RawReports.int(timers["created"]) >= 1 && RawReports.int(timers["fires"]) >= 1, "its end timeout was followed")
    }
}

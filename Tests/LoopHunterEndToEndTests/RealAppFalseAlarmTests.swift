import Foundation
import LoopHunterTestSupport
import Testing

/// The false alarms real applications raised (scripts/realapps/README.md), each reproduced by a mode
/// of `gtk3-quiet` / `gtk4-quiet` (Tests/Programs/gtk/gtk_quiet.c) run under the preload, next to
/// the bug the same detector must still catch: a GTK 3 menu's window timed from start-up
/// (slow-window), GLib's one-shot GTask completions summed per callback (timer-storm), a one-off
/// allocation burst (alloc-storm), idle threads out of their event loop (stall).
@Suite("real applications: the false alarms they raised stay quiet, the bugs next to them do not")
struct RealAppFalseAlarmTests {
    typealias JSON = [String: Any]

    /// Runs `gtkN-quiet MODE` plain and under the preload: the same output and status, then what
    /// the preload wrote.
    static func quiet(_ version: Int, _ mode: String, extra: [String: String?] = [:]) throws -> RawOutput {
        try Native.ensureBuilt()
        let program = "\(Native.gtkPrograms)/gtk\(version)-quiet"
        let plain = GTKRun.run([program, mode], dir: nil)
        #expect(plain.status == 0 && !plain.timedOut && plain.stdout.hasSuffix("\(mode): done\n"), "\(plain.stderr)")
        let dir = ReportDirectory("quiet-gtk\(version)-\(mode)")
        defer { dir.remove() }
        let traced = GTKRun.run([program, mode], dir: dir.path, extra: extra)
        #expect(traced.status == plain.status && traced.stdout == plain.stdout)
        #expect(GTKRun.normalized(traced.stderr) == GTKRun.normalized(plain.stderr))
        return try RawOutput.read(dir)
    }

    static func kinds(_ out: RawOutput) -> [String] { out.reports.map { $0["kind"] as? String ?? "?" } }

    /// The stall reports about the thread named `name` (prefix).
    static func stalls(_ out: RawOutput, thread name: String) -> [JSON] {
        out.kind("stall").filter { (($0["thread"] as? JSON)?["name"] as? String ?? "").hasPrefix(name) }
    }

    /// The summary's entry of the thread named `name` (prefix).
    static func thread(_ out: RawOutput, _ name: String) -> JSON? {
        (out.summary["threads"] as? [JSON])?.first { ($0["name"] as? String ?? "").hasPrefix(name) }
    }

    @Test("slow-window: a window made at start-up and shown 2.5 s later from inside GTK (a GTK 3 menu, a window made visible) is timed from its map",
          arguments: [3, 4])
    func latePopup(_ version: Int) throws {
        let out = try Self.quiet(version, "late-popup")
        #expect(out.kind("slow-window").isEmpty, "\(Self.kinds(out))")
        let windows = try #require(out.summary["windows"] as? [JSON])
        let late = try #require(windows.first { $0["title"] as? String == "Late" }, "\(windows)")
        #expect(late["since"] as? String == "map" && late["painted"] as? Bool == true)
        #expect(RawReports.int(late["time_to_first_frame_ms"]) < 2000 && RawReports.int(late["created_us"]) >= 2_400_000,
                "its clock started when it was mapped, 2.5 s in: \(late)")
        if version == 3 {
            // The menu's own popup window (made with the menu, mapped when it popped up) is not an
            // application window: counted, never listed nor judged.
            #expect(RawReports.int(out.summary["windows_popups"]) >= 1, "\(out.summary["windows_popups"] ?? "nil")")
            #expect(!windows.contains { $0["title"] as? String != "Late" && $0["since"] as? String == "map" }, "\(windows)")
        }
    }

    @Test("timer-storm: 250 GTask completions and 250 one-shot idles sharing a callback are 500 sources firing once each",
          arguments: [3, 4])
    func asyncTasks(_ version: Int) throws {
        let out = try Self.quiet(version, "async-tasks")
        #expect(out.kind("timer-storm").isEmpty, "\(Self.kinds(out))")
        let timers = try #require(out.summary["timers"] as? JSON)
        #expect(RawReports.int(timers["created"]) >= 500 && RawReports.int(timers["fires"]) >= 500, "each one was followed: \(timers)")
    }

    @Test("timer-storm: an idle returning TRUE 300 times in a row, the loop never sleeping, is still a storm", arguments: [3, 4])
    func spinningIdle(_ version: Int) throws {
        let out = try Self.quiet(version, "spin-idle")
        let storm = try #require(out.kind("timer-storm").first, "\(Self.kinds(out))")
        #expect(out.kind("timer-storm").count == 1)
        #expect(RawReports.int(storm["count"]) == 201 && RawReports.int(storm["threshold"]) == 200)
        let timer = try #require(storm["timer"] as? JSON)
        #expect(timer["source"] as? String == "g_idle_add" && RawReports.int(timer["fires"]) == 201)
        #expect((timer["storm"] as? JSON)?["reason"] as? String == "fires")
        #expect(RawReports.int((timer["storm"] as? JSON)?["fires_in_a_row"]) == 201)
        #expect(try Symbolizer.callback(timer["callback"]) == "quiet_poll_idle")
    }

    @Test("alloc-storm: one 96 MiB burst in one iteration is no storm (it would be with LOOPHUNTER_ALLOC_REPEAT=1)",
          arguments: [3, 4])
    func allocationBurst(_ version: Int) throws {
        let out = try Self.quiet(version, "alloc-burst")
        #expect(out.kind("alloc-storm").isEmpty, "\(Self.kinds(out))")
        let once = try Self.quiet(version, "alloc-burst", extra: ["LOOPHUNTER_ALLOC_REPEAT": "1"])
        let storm = try #require(try once.kind("alloc-storm").first { try Symbolizer.functions($0).contains("alloc_burst") },
                                 "the burst crosses the limit: \(Self.kinds(once))")
        #expect((storm["object"] as? JSON)?["type"] as? String == "(no layout running)")
        #expect(RawReports.int(storm["count"]) > 64 << 20)
    }

    @Test("stall: a pool worker that iterated a private context and now waits on a condition variable is idle, not stuck",
          arguments: [3, 4])
    func idlePoolWorker(_ version: Int) throws {
        let out = try Self.quiet(version, "idle-pool", extra: ["LOOPHUNTER_STALL_MS": "300"])
        let worker = try #require(Self.thread(out, "pool"), "the worker ran a loop iteration: \(out.summary["threads"] ?? [])")
        #expect(RawReports.int(worker["iterations"]) >= 1)
        #expect(Self.stalls(out, thread: "pool").isEmpty, "\(Self.kinds(out))")
    }

    @Test("stall: a thread with a loop of its own that iterates GLib's without blocking, then waits in its own poll, is idle",
          arguments: [3, 4])
    func ownLoop(_ version: Int) throws {
        let out = try Self.quiet(version, "own-loop", extra: ["LOOPHUNTER_STALL_MS": "300"])
        let thread = try #require(Self.thread(out, "own-loop"), "\(out.summary["threads"] ?? [])")
        #expect(RawReports.int(thread["iterations"]) >= 4)
        #expect(Self.stalls(out, thread: "own-loop").isEmpty, "\(Self.kinds(out))")
    }

    @Test("stall: a worker whose own GMainLoop runs a callback sleeping 1 s is stuck in that callback", arguments: [3, 4])
    func workerStall(_ version: Int) throws {
        let out = try Self.quiet(version, "worker-stall", extra: ["LOOPHUNTER_STALL_MS": "300"])
        let stalls = Self.stalls(out, thread: "worker")
        #expect(stalls.count == 1, "\(Self.kinds(out))")
        let stall = try #require(stalls.first)
        #expect(RawReports.int((stall["stall"] as? JSON)?["duration_ms"]) >= 900)
        #expect(try Symbolizer.functions(stall).contains("quiet_worker_blocks"))
    }
}

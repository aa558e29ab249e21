import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// Layout requests and their causes, on real GTK 3 and GTK 4 programs under Xvfb
/// (Tests/Programs/gtk/gtk_causes.c): a loop of each cause kind is reported as a layout-loop naming
/// the looping widget, the kind, and the application function that re-requested layout (and, for a
/// deferred cause, the idle that carried it and where layout added it); programs that relayout
/// every frame for reasons of their own (animations, timers, ticks) get no report at all.
@Suite("layout requests and their causes (GTK 3, GTK 4, toykit)")
struct CauseTests {
    /// One loop program and what its report must say.
    struct Loop: Sendable, CustomTestStringConvertible {
        let gtk: Int
        let mode: String
        /// The looping widget's name; nil: either of "left" and "right" (the other one is a member).
        let widget: String?
        let kind: String
        /// The application function that re-requested layout.
        let requester: String
        var testDescription: String { "gtk\(gtk)-causes \(mode)" }
    }

    static let loops: [Loop] = [3, 4].flatMap { v in
        [Loop(gtk: v, mode: "in-layout", widget: "status", kind: "in-layout", requester: "relabel_in_layout"),
         Loop(gtk: v, mode: "ping-pong", widget: nil, kind: "deferred", requester: "ping_pong_idle"),
         Loop(gtk: v, mode: "tick-flip", widget: "status", kind: "result", requester: "flip_by_width")]
    }

    /// A healthy program; `busy`: it relays out every frame (GTK 4 does not relayout a label set
    /// to the text it has: its same-text program is idle).
    struct Healthy: Sendable, CustomTestStringConvertible {
        let gtk: Int
        let mode: String
        var busy: Bool { !(gtk == 4 && mode == "same-text") }
        var testDescription: String { "gtk\(gtk)-causes \(mode)" }
    }

    static let healthyPrograms: [Healthy] = [3, 4].flatMap { v in
        ["paned-anim", "revealer", "same-text", "tick-resize", "tick-scaled"].map { Healthy(gtk: v, mode: $0) }
    }

    /// Runs `gtkN-causes MODE` plain and under the preload; the program's output must not change.
    static func runBoth(_ program: String, _ mode: String, dir: ReportDirectory) -> HostRun {
        let path = Native.gtkPrograms + "/" + program
        let plain = GTKRun.run([path, mode], dir: nil)
        let traced = GTKRun.run([path, mode], dir: dir.path)
        #expect(plain.status == 0 && traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout == plain.stdout && traced.stdout.hasSuffix("\(program) \(mode): done\n"), "\(traced.stdout)")
        // The same messages as without LoopHunter; how many times GTK 3 repeats its "layout
        // continuously requested" warning depends on the frames the run got, so they are compared
        // as sets of lines.
        func lines(_ text: String) -> Set<Substring> { Set(GTKRun.normalized(text).split(separator: "\n")) }
        #expect(lines(traced.stderr) == lines(plain.stderr), "the program's messages are printed as without LoopHunter")
        return traced
    }

    @Test("a loop of each cause kind: one layout-loop report naming the widget, the kind and the requesting function",
          arguments: loops)
    func loop(_ l: Loop) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cause-gtk\(l.gtk)-\(l.mode)")
        defer { dir.remove() }
        _ = Self.runBoth("gtk\(l.gtk)-causes", l.mode, dir: dir)
        let reports = try dir.reports()
        let loops = reports.filter { $0.kind != "toolkit-warning" }
        #expect(loops.count == 1, "one report per loop: \(loops.map { "\($0.kind) \($0.object.path)" })")
        let report = try #require(loops.first)
        #expect(report.kind == "layout-loop" && report.version == SchemaVersion.current.description)
        #expect(report.count >= report.threshold && report.threshold == 30 && report.countUnit.hasPrefix("frames in a row"))
        #expect(report.historyUnit == "frame" && report.hook.name == "gtk_allocate")
        if let widget = l.widget {
            #expect(report.object.name == widget && report.loopMembers.isEmpty, "\(report.object.path)")
        } else {
            let names = Set([report.object.name] + report.loopMembers.map(\.name))
            #expect(names == ["left", "right"], "both labels of the ping-pong: \(names)")
        }
        #expect(report.object.path.hasPrefix("LhWindow 'main-window' > LhBox 'toolbar' > LhLabel"), "\(report.object.path)")

        let cause = try #require(report.cause, "a layout-loop report says why")
        #expect(cause.kind == l.kind)
        #expect(cause.entry == "gtk_widget_queue_resize")
        #expect(cause.widget.address == report.object.address && cause.widget.name == report.object.name)
        #expect(cause.widget.path == report.object.path)
        // The request's stack names the application function that re-requested layout (the program
        // exports its functions): in the report's own stack too, which decides the finding's `where`.
        let requesters = cause.requestStack.compactMap(\.symbol)
        #expect(requesters.contains(l.requester) && requesters.contains("gtk_label_set_text"), "\(requesters)")
        #expect(report.frames == cause.requestStack)
        let appFrames = report.frames.filter { $0.module?.hasSuffix("/gtk\(l.gtk)-causes") == true }
        #expect(appFrames.first?.symbol == l.requester, "the first frame of the program is the requester")

        if l.kind == "deferred" {
            // The idle that made the request, added while the other label was allocated.
            let idle = try #require(cause.addedBy.first)
            #expect(idle.kind == "in-layout" && idle.addedWith == "g_idle_add")
            #expect(idle.callback?.symbol == "ping_pong_idle")
            #expect(idle.stack.compactMap(\.symbol).contains("label_allocated"), "\(idle.stack.compactMap(\.symbol))")
            #expect(cause.addedBy.count == 1 && cause.chainTruncated == false)
        } else {
            #expect(cause.addedBy.isEmpty)
        }

        let summary = try #require(try dir.summaries().first)
        let byKind = l.kind == "in-layout" ? "in_layout" : l.kind
        let requests = try #require(summary.causes?.requests)
        #expect((requests[byKind] ?? 0) >= 30, "the loop's requests counted under their kind: \(requests)")
    }

    @Test("relayout every frame for the program's own reasons: no report", arguments: healthyPrograms)
    func healthy(_ h: Healthy) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cause-gtk\(h.gtk)-\(h.mode)")
        defer { dir.remove() }
        _ = Self.runBoth("gtk\(h.gtk)-causes", h.mode, dir: dir)
        let reports = try dir.reports()
        #expect(reports.isEmpty, "a healthy program: \(reports.map { "\($0.kind) \($0.object.path) \($0.cause?.kind ?? "")" })")
        let summary = try #require(try dir.summaries().first)
        let requests = try #require(summary.causes?.requests)
        if h.busy {
            #expect((summary.threads.compactMap(\.frames).max() ?? 0) > 60, "it drew frames")
            #expect(requests.values.reduce(0, +) > 30, "its layout requests were seen: \(requests)")
        }
        #expect((requests["in_layout"] ?? 0) + (requests["deferred"] ?? 0) < 30, "none of them (or few) caused by layout: \(requests)")
        #expect((summary.causes?.longestRun ?? 0) < 30, "no run of layout-caused relayouts near the limit")
    }

    @Test("toykit: requests counted by cause; LOOPHUNTER_LOOP_FRAMES=0 gives the capped loop back to layout-streak")
    func toykit() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("cause-toykit-capped")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, "capped-loop"], dir: dir.path)
        #expect(run.status == 0)
        let loop = try #require(try dir.reports().first)
        #expect(loop.kind == "layout-loop" && loop.cause?.kind == "in-layout" && loop.cause?.entry == "tk_view_set_needs_layout")
        let requests = try #require(try dir.summaries().first?.causes)
        #expect((requests.requests["in_layout"] ?? 0) >= 30 && requests.loops == 1)
        #expect(requests.entries.contains { $0.entry == "tk_view_set_needs_layout" && $0.requests > 30 })

        let off = ReportDirectory("cause-toykit-capped-off")
        defer { off.remove() }
        let streakRun = HostRun.underPreload([Native.demo, "capped-loop"], dir: off.path, extra: ["LOOPHUNTER_LOOP_FRAMES": "0"])
        #expect(streakRun.status == 0 && streakRun.stdout == run.stdout)
        let reports = try off.reports()
        #expect(reports.map(\.kind) == ["layout-streak"], "\(reports.map(\.kind))")
        #expect(reports.first?.object.name == "status" && reports.first?.streak?.lastIterationLayouts == 4)
        #expect(try off.summaries().first?.causes?.loops == 0)
    }
}

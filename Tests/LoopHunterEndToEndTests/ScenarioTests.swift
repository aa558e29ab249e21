import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Every toykit scenario under the preload, asserting on the files it wrote; and the same scenario
/// without the preload and with LOOPHUNTER_DISABLE=1, asserting the program behaved identically.
@Suite("toykit scenarios under the preload")
struct ScenarioTests {
    /// What one scenario must produce.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let scenario: String
        /// nil: no report at all.
        let kind: String?
        let type: String?
        let name: String?
        /// Names that must be listed as the rest of the loop.
        let members: [String]
        /// A function of the scenario that must be on the report's stack, with its source file
        /// (nil: none is required, as for a heap growth, whose stack is where the loop noticed).
        let function: String?
        let file: String?
        let threadName: String?
        /// Processes that write a summary (fork: parent and child).
        let processes: Int
        /// The object whose layouts must head the report's `alloc.top_allocators`.
        var allocator: Allocator? = nil
        var testDescription: String { scenario }

        /// A top allocator: its type, and more than this many bytes allocated by its layouts.
        struct Allocator: Sendable {
            let type: String
            let moreThanBytes: UInt64
        }
    }

    static let expectations: [Expectation] = [
        .init(scenario: "healthy", kind: nil, type: nil, name: nil, members: [], function: nil,
              file: nil, threadName: nil, processes: 1),
        .init(scenario: "loop", kind: "layout-storm", type: "StatusLabel", name: "status",
              members: ["toolbar"], function: "loop_toolbar_layout", file: "scenario_loop.c",
              threadName: "toykit-demo", processes: 1),
        .init(scenario: "capped-loop", kind: "layout-loop", type: "StatusLabel", name: "status",
              members: ["toolbar"], function: "loop_toolbar_layout", file: "scenario_loop.c",
              threadName: "toykit-demo", processes: 1),
        .init(scenario: "oscillate", kind: "layout-loop", type: "Pane", name: nil,
              members: ["split"], function: "flip_width", file: "scenario_oscillate.c",
              threadName: "toykit-demo", processes: 1),
        .init(scenario: "alloc-storm", kind: "alloc-storm", type: "ListView", name: "list", members: [],
              function: "alloc_storm_list_layout", file: "scenario_alloc_storm.c", threadName: "toykit-demo",
              processes: 1, allocator: .init(type: "ListView", moreThanBytes: 64 << 20)),
        .init(scenario: "leak", kind: "heap-growth", type: "(process heap)", name: nil, members: [], function: nil,
              file: nil, threadName: "toykit-demo", processes: 1, allocator: .init(type: "ListView", moreThanBytes: 64 << 20)),
        .init(scenario: "threads", kind: "layout-storm", type: "StatusLabel", name: "worker-status",
              members: ["worker-toolbar"], function: "loop_toolbar_layout", file: "scenario_loop.c",
              threadName: "ui-worker", processes: 1),
        .init(scenario: "fork", kind: "layout-storm", type: "StatusLabel", name: "child-status",
              members: ["child-toolbar"], function: "loop_toolbar_layout", file: "scenario_loop.c",
              threadName: "toykit-demo", processes: 2),
    ]

    @Test("writes the expected report and summary", arguments: expectations)
    func reports(_ e: Expectation) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory(e.scenario)
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, e.scenario], dir: dir.path)
        #expect(run.status == 0, "exit status \(run.status), stderr: \(run.stderr)")
        #expect(!run.timedOut)
        #expect(run.loophunterLines.isEmpty, "unexpected LoopHunter messages: \(run.loophunterLines)")

        let reports = try dir.reports()
        let summaries = try dir.summaries()
        #expect(summaries.count == e.processes, "summaries: \(dir.fileNames)")
        #expect(dir.fileNames.allSatisfy { $0.hasSuffix(".json") && !$0.hasPrefix(".") },
                "temporary files left behind: \(dir.fileNames)")

        guard let kind = e.kind else {
            #expect(reports.isEmpty, "a healthy scenario breached: \(reports.map { "\($0.kind) \($0.object.path) \($0.count)" })")
            for summary in summaries {
                #expect(summary.reports.breaches == 0)
                #expect(summary.layoutCalls > 0, "layouts were counted")
                #expect(summary.max?.count == 1, "no view is laid out twice in one healthy iteration")
                #expect(summary.alloc.map { $0.mallocIsOurs && $0.calls > 0 } == true, "allocations were counted")
            }
            return
        }
        #expect(reports.count == 1, "exactly one report per loop: \(dir.fileNames)")
        let report = try #require(reports.first)
        #expect(report.kind.rawValue == kind)
        #expect(report.object.type == e.type)
        if kind == "heap-growth" {
            // The process heap: no view, no address, no ancestors.
            #expect(report.object.name == nil && report.object.address == "0x0" && report.object.ancestors.isEmpty)
            #expect(report.object.path == "(process heap)" && report.object.geometry == nil)
        } else {
            if let name = e.name {
                #expect(report.object.name == name)
            } else {
                // Two equal siblings fight: either may be named; the other must be a member (with
                // their parent, relaid out by the same requests).
                let names = Set([report.object.name] + report.loopMembers.map(\.name))
                #expect(names.isSuperset(of: ["left", "right"]) && ["left", "right"].contains(report.object.name),
                        "\(names)")
            }
            #expect(report.object.path.hasSuffix("'\(report.object.name ?? "")'"))
            #expect(report.object.ancestors.first?.type == "TkWindow")
        }
        for member in e.members {
            #expect(report.loopMembers.contains { $0.name == member }, "members: \(report.loopMembers)")
        }
        #expect(report.count >= report.threshold)
        #expect(report.thread.name == e.threadName)
        #expect(!report.history.isEmpty && report.history.last?.iteration == report.thread.iteration)
        #expect(!report.frames.isEmpty && report.frames.allSatisfy { $0.module != nil && $0.buildId != nil })
        #expect(report.frames.first?.module?.hasSuffix("libloophunter.so") == false,
                "the first frame is the host's caller, not LoopHunter")

        // After symbolization the scenario's own function is on the stack, with its file.
        if let function = e.function {
            let locations = try Symbolizer.symbolize(report.frames)
            let hit = locations.compactMap { $0 }.first { $0.function == function }
            #expect(hit != nil, "frames: \(locations.compactMap { $0?.function })")
            #expect(hit?.file.hasSuffix(e.file ?? "") == true && (hit?.line ?? 0) > 0)
        }

        // The memory side: the alloc family is on by default, in every report.
        let alloc = try #require(report.alloc, "schema 1.2 reports carry the memory side")
        #expect(report.history.allSatisfy { $0.allocCalls != nil && $0.allocBytes != nil && $0.freedBytes != nil })
        if let allocator = e.allocator {
            let top = try #require(alloc.topAllocators.first, "top allocators: \(alloc.topAllocators)")
            #expect(top.type == allocator.type && top.bytes > allocator.moreThanBytes, "\(top)")
        }

        switch kind {
        case "layout-loop":
            // Relaid out by layout-caused requests in 30 frames in a row: made in layout (the toolbar's
            // layout resizes the status) or deferred through the idle a pane's layout adds.
            #expect(report.threshold == 30 && report.count >= 30 && report.streak == nil)
            let cause = try #require(report.cause)
            #expect(cause.entry == "tk_view_set_needs_layout" && cause.widget.address == report.object.address)
            #expect(cause.requestStack == report.frames, "the report's stack is the request that closed the loop")
            if e.scenario == "capped-loop" {
                #expect(cause.kind == "in-layout" && cause.addedBy.isEmpty)
            } else {
                #expect(cause.kind == "deferred")
                let idle = try #require(cause.addedBy.first)
                #expect(idle.kind == "in-layout" && idle.addedWith == "tk_loop_add_idle" && !idle.stack.isEmpty)
                let added = try Symbolizer.symbolize(idle.stack).compactMap { $0?.function }
                #expect(added.contains { $0.hasPrefix("oscillate_") && $0.hasSuffix("_layout") }, "added in a pane's layout: \(added)")
            }
        case "alloc-storm":
            // 1,536 rows of 48 KiB per layout cross the 64 MiB limit in every layout of the list
            // (reported from the thread's second iteration on, then throttled).
            #expect(report.hook.family == "alloc" && report.countUnit == "bytes allocated in one iteration")
            #expect(report.threshold == 64 << 20 && report.count > report.threshold)
            #expect(alloc.iterationBytes == report.count && report.history.last?.allocBytes == report.count)
            #expect(alloc.object.map { $0.layouts >= 1 && $0.bytes > 64 << 20 } == true, "what the list's layouts allocated")
            #expect(alloc.growth == nil)
        case "heap-growth":
            // 1 MiB leaked per frame: more than 64 MiB in 60 or more growing iterations in a row.
            #expect(report.hook.name == "malloc" && report.hook.family == "alloc")
            #expect(report.countUnit == "bytes of heap growth" && report.threshold == 64 << 20)
            let growth = try #require(alloc.growth)
            #expect(growth.iterations >= 60 && alloc.liveBytes >= growth.startLiveBytes + report.count)
            #expect(alloc.object == nil)
        default:
            #expect(report.count == 101 && report.threshold == 100)
            // The storm's cause: the toolbar's layout re-requests the status's, in layout.
            #expect(report.cause?.kind == "in-layout" && report.cause?.widget.address == report.object.address)
            #expect(alloc.object.map { $0.layouts >= 101 } == true, "the looping object's layouts")
        }

        // The reporting process's summary accounts for what happened.
        let summary = try #require(summaries.first { $0.process.pid == report.process.pid })
        #expect(summary.reports.written == 1)
        #expect(summary.reports.breaches >= 1)
        #expect(summary.fingerprints.contains { $0.fingerprint == report.fingerprint && $0.reports == 1 })
        #expect(summary.hooks.contains { $0.name == "tk_view_layout" && $0.calls == summary.layoutCalls })
        #expect(summary.threads.contains { $0.tid == report.thread.tid && $0.name == e.threadName })
        #expect(summary.table.droppedCalls == 0 && summary.table.objects >= 2)
        #expect(summary.config["LOOPHUNTER_THRESHOLD"] == .number(100))
        let counted = try #require(summary.alloc, "the alloc family is on by default")
        #expect(counted.mallocIsOurs && counted.calls > 0 && counted.threadsWithoutCounters == 0)
        #expect(summary.hooks.filter { $0.family == "alloc" }.allSatisfy { $0.enabled && $0.calls == nil })
        if e.scenario == "fork" {
            let parent = try #require(summaries.first { $0.process.pid != report.process.pid })
            #expect(report.process.ppid == parent.process.pid, "the child reported under its own pid")
            #expect(parent.reports.breaches == 0)
        }
    }

    @Test("the preload never changes the program's behaviour", arguments: Native.scenarios)
    func unchangedBehaviour(_ scenario: String) throws {
        try Native.ensureBuilt()
        let plain = HostRun.run([Native.demo, scenario])
        #expect(plain.status == 0 && !plain.timedOut)
        let dir = ReportDirectory("\(scenario)-same")
        defer { dir.remove() }
        let traced = HostRun.underPreload([Native.demo, scenario], dir: dir.path)
        #expect(traced.status == plain.status)
        #expect(traced.stdout == plain.stdout)
        #expect(traced.stderr == plain.stderr)

        let offDir = ReportDirectory("\(scenario)-off")
        let off = HostRun.underPreload([Native.demo, scenario], dir: offDir.path,
                                       extra: ["LOOPHUNTER_DISABLE": "1"])
        #expect(off.status == plain.status)
        #expect(off.stdout == plain.stdout)
        #expect(off.stderr == plain.stderr)
        #expect(!offDir.exists, "LOOPHUNTER_DISABLE=1 writes nothing, not even the directory")
    }

    /// toykit counts its own tk_view_layout() calls; LoopHunter's count must be exactly that.
    @Test("layout counts equal toykit's own count", arguments: ["loop", "capped-loop", "oscillate"])
    func exactCounts(_ scenario: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("\(scenario)-exact")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, scenario], dir: dir.path)
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("toykit layouts=") })
        let truth = try #require(UInt64(line.split(separator: "=").last ?? ""))
        let summary = try #require(try dir.summaries().first)
        #expect(summary.layoutCalls == truth)
        #expect(summary.hooks.first { $0.name == "tk_view_layout" }?.calls == truth)
    }
}

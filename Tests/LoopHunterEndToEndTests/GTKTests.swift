import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Real GTK 3 and GTK 4 programs under Xvfb: exact per-widget counts against the programs' own
/// counts, one report per loop naming the right widget, nothing for healthy programs, toolkit
/// warnings kept and still printed, address reuse, a GTK of unknown layout, and the stock demos.
@Suite("GTK 3 and GTK 4 programs")
struct GTKTests {
    /// One line of a program's LH_GROUND_TRUTH file.
    struct Truth {
        let name: String
        let type: String
        let allocations: UInt64
        let measures: UInt64
        let address: UInt64
    }

    static func truth(_ path: String) throws -> [Truth] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let parts = line.split(separator: " ").map(String.init)
            var values: [String: String] = [:]
            for kv in parts.dropFirst(2) {
                let pair = kv.split(separator: "=", maxSplits: 1).map(String.init)
                values[pair[0]] = pair[1]
            }
            return Truth(name: parts[0], type: parts[1], allocations: UInt64(values["size_allocate"] ?? "") ?? 0,
                         measures: UInt64(values["measure"] ?? "") ?? 0,
                         address: UInt64((values["address"] ?? "0x0").dropFirst(2), radix: 16) ?? 0)
        }
    }

    /// LoopHunter's whole-run count of (address, hook), from the summary's top objects.
    static func counted(_ summary: Summary, address: UInt64, hook: String) -> UInt64 {
        (summary.topObjects ?? []).first {
            $0.hook == hook && UInt64($0.address.dropFirst(2), radix: 16) == address
        }?.calls ?? 0
    }

    static let testPrograms = ["gtk3-frame-loop", "gtk4-frame-loop", "gtk3-idle-loop", "gtk4-idle-loop",
                               "gtk3-healthy", "gtk4-healthy"]

    @Test("per-widget counts equal the program's own, exactly; loops report, healthy programs do not",
          arguments: testPrograms)
    func program(_ name: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("gtk-\(name)")
        defer { dir.remove() }
        let truthFile = dir.path + ".truth"
        defer { try? FileManager.default.removeItem(atPath: truthFile) }
        // A fixed number of frames, so both runs print the same messages (a frame loop warns once
        // per frame) however fast each one is.
        let plain = GTKRun.run([Native.gtkPrograms + "/" + name], dir: nil, extra: ["LH_RUN_FRAMES": "180"])
        let traced = GTKRun.run([Native.gtkPrograms + "/" + name], dir: dir.path,
                              extra: ["LH_GROUND_TRUTH": truthFile, "LH_RUN_FRAMES": "180"])
        #expect(plain.status == 0 && traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout == plain.stdout && traced.stdout == "\(name): done\n")
        #expect(GTKRun.normalized(traced.stderr) == GTKRun.normalized(plain.stderr),
                "the program's messages are printed exactly as without LoopHunter")

        let summary = try #require(try dir.summaries().first)
        #expect(summary.gtk?.counting == "on" && summary.gtk?.wrapperPoolExhausted == 0)
        #expect((summary.threads.compactMap(\.frames).max() ?? 0) > 100, "frames drive the layout epochs")
        let widgets = try Self.truth(truthFile)
        #expect(widgets.count >= 3)
        for w in widgets {
            #expect(Self.counted(summary, address: w.address, hook: "gtk_allocate") == w.allocations,
                    "\(w.name) \(w.type): allocations")
            #expect(Self.counted(summary, address: w.address, hook: "gtk_measure") == w.measures,
                    "\(w.name) \(w.type): measures")
        }

        let reports = try dir.reports()
        let loops = reports.filter { $0.kind.rawValue.hasPrefix("layout-") }
        if name.hasSuffix("healthy") {
            #expect(reports.isEmpty, "a healthy program: \(reports.map { "\($0.kind) \($0.object.path)" })")
            return
        }
        #expect(loops.count == 1, "one report per loop: \(loops.map { "\($0.kind) \($0.object.path)" })")
        let loop = try #require(loops.first)
        #expect(loop.kind == "layout-loop")
        #expect(loop.object.type == "LhLabel" && loop.object.name == "status")
        #expect(loop.object.ancestors.map(\.name) == ["main-window", "toolbar"])
        #expect(loop.object.path == "LhWindow 'main-window' > LhBox 'toolbar' > LhLabel 'status'")
        #expect(loop.historyUnit == "frame" && loop.thread.frame != nil)
        #expect(loop.history.filter { $0.objectSize != nil }.count >= 2, "the label's size in the run-up")
        let cause = try #require(loop.cause)
        #expect(cause.widget.address == loop.object.address && cause.entry == "gtk_widget_queue_resize")
        #expect(cause.requestStack.contains { $0.symbol == "gtk_label_set_text" }, "the text set re-requests layout")
        if name.contains("frame-loop") {
            #expect(cause.kind == "in-layout", "set from the frame clock's layout phase")
            let warnings = reports.filter { $0.kind == "toolkit-warning" }
            #expect(warnings.contains { $0.warning?.message == "gdk-frame-clock: layout continuously requested, giving up after 4 tries" })
            #expect(traced.stderr.contains("layout continuously requested"), "and still printed")
        } else {
            #expect(cause.kind == "deferred" && cause.addedBy.first?.addedWith == "g_idle_add", "an idle added in layout")
        }
    }

    @Test("a widget destroyed and a new one at its address are different objects", arguments: ["gtk3-reuse", "gtk4-reuse"])
    func reuse(_ name: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("gtk-\(name)")
        defer { dir.remove() }
        let truthFile = dir.path + ".truth"
        defer { try? FileManager.default.removeItem(atPath: truthFile) }
        let run = GTKRun.run([Native.gtkPrograms + "/" + name], dir: dir.path, extra: ["LH_GROUND_TRUTH": truthFile])
        #expect(run.status == 0)
        let reused = Int(run.stderr.split(separator: "\n").first { $0.hasSuffix("addresses reused") }?
            .split(separator: " ").first ?? "") ?? 0
        #expect(reused > 0, "the allocator reused an address (else this test proves nothing)")
        let labels = try Self.truth(truthFile)
        let last = try #require(labels.last)
        let sameAddress = labels.filter { $0.address == last.address }
        #expect(sameAddress.count >= 2, "the last label lives where earlier ones did")
        let summary = try #require(try dir.summaries().first)
        #expect(Self.counted(summary, address: last.address, hook: "gtk_allocate") == last.allocations,
                "its own count, not the sum of \(sameAddress.count) labels'")
        #expect(Self.counted(summary, address: last.address, hook: "gtk_measure") == last.measures)
        #expect((summary.gtk?.widgetsForgotten ?? 0) >= UInt64(labels.count - 1))
    }

    @Test("a GTK whose class layout is unknown: counting off, one line, the program unchanged",
          arguments: [("major5", "GTK 5.0.0: this major version's class layout is unknown"),
                      ("layout", "GTK 4.99.0: GtkWidgetClass is not the 408-byte GTK 4 layout")])
    func unknownLayout(_ mode: String, _ words: String) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("fake-gtk")
        defer { dir.remove() }
        let plain = HostRun.run([Native.gtkPrograms + "/lh-fake-gtk", mode])
        let run = HostRun.underPreload([Native.gtkPrograms + "/lh-fake-gtk", mode], dir: dir.path)
        #expect(run.status == plain.status && run.stdout == plain.stdout && plain.status == 0)
        #expect(run.loophunterLines.count == 1 && run.loophunterLines[0].contains(words), "\(run.stderr)")
        #expect(run.loophunterLines[0].contains("GTK widget layouts are not counted"))
    }

    @Test("the preload's GTK offsets are those of the installed headers")
    func offsets() throws {
        try Native.ensureBuilt()
        let source = try String(contentsOf: Native.root.appendingPathComponent("CShim/preload/toolkits/lh_gtk.c"), encoding: .utf8)
        func constant(_ name: String) -> String? {
            source.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }?.split(separator: " ").last.map(String.init)
        }
        /// `{216, P_G3_ALLOC},      /* size_allocate */` → ("size_allocate", "216"), for one slot table.
        func slots(_ table: String) -> [String: String] {
            guard let start = source.range(of: "static const slot_spec \(table)[] = {") else { return [:] }
            let body = source[start.upperBound...].prefix { $0 != ";" }
            var result: [String: String] = [:]
            for line in body.split(separator: "\n") {
                guard let open = line.firstIndex(of: "{"), let comment = line.range(of: "/* ") else { continue }
                let offset = line[line.index(after: open)...].prefix { $0.isNumber }
                let name = line[comment.upperBound...].prefix { $0 != " " && $0 != "*" }
                if !offset.isEmpty { result[String(name)] = String(offset) }
            }
            return result
        }
        for version in [3, 4] {
            let run = HostRun.run([Native.gtkPrograms + "/gtk\(version)-offsets"])
            var headers: [String: String] = [:]
            for line in run.stdout.split(separator: "\n") {
                let kv = line.split(separator: "=").map(String.init)
                headers[kv[0]] = kv[1]
            }
            #expect(headers["GObjectClass.finalize"] == "48")
            #expect(headers["GtkWidgetClass"] == constant("GTK\(version)_WIDGET_CLASS_SIZE"))
            let table = slots("gtk\(version)_widget_slots")
            #expect(table.count >= 2)
            for (name, offset) in table { #expect(headers[name] == offset, "GTK \(version) \(name)") }
            if version == 4 {
                #expect(headers["GtkLayoutManagerClass"] == constant("GTK4_LAYOUT_MANAGER_CLASS_SIZE"))
                let lm = slots("gtk4_layout_manager_slots")
                #expect(headers["layout_manager.measure"] == lm["measure"] && headers["layout_manager.allocate"] == lm["allocate"])
            }
        }
    }

    @Test("stock GTK demos, 20 s each: unchanged, no false breach, layouts counted",
          arguments: ["gtk3-widget-factory", "gtk4-widget-factory", "gtk3-demo", "gtk4-demo"])
    func stockDemo(_ demo: String) throws {
        try Native.ensureBuilt()
        let runFor = Native.gtkPrograms + "/run-for.sh"
        let plain = GTKRun.run([runFor, "20", "/usr/bin/\(demo)"], dir: nil)
        let dir = ReportDirectory("gtk-\(demo)")
        defer { dir.remove() }
        // Event-loop health is measured in wall time, which a loaded 2-core CI machine stretches
        // (a demo's first frame can take seconds there): its limits are raised here, where the
        // subject is layout; its detectors are tested by EventLoopHealthTests. Its hooks (timers,
        // signal emissions, windows) stay on, so "unchanged" covers them.
        let traced = GTKRun.run([runFor, "20", "/usr/bin/\(demo)"], dir: dir.path,
                              extra: ["LOOPHUNTER_WINDOW_MS": "20000", "LOOPHUNTER_STALL_MS": "10000"])
        #expect(plain.status == 0 && traced.status == 0, "\(traced.stderr)")
        #expect(!traced.timedOut && !traced.signaled)
        #expect(traced.stdout == plain.stdout)
        #expect(GTKRun.normalized(traced.stderr) == GTKRun.normalized(plain.stderr))
        let summaries = try dir.summaries().filter { $0.process.executable.hasSuffix(demo) }
        let summary = try #require(summaries.first)
        #expect(summary.gtk?.counting == "on" && summary.gtk?.wrapperPoolExhausted == 0)
        let calls = summary.hooks.first { $0.name == "gtk_allocate" }?.calls ?? 0
        #expect(calls > 100, "widget layouts were counted: \(calls)")
        // GTK's own warnings are real (toolkit-warning); every detector of LoopHunter's stays quiet
        // (layout loops, allocation storms, heap growth).
        let breaches = try dir.reports().filter { $0.kind != "toolkit-warning" }
        #expect(breaches.isEmpty, "no false breach: \(breaches.map { "\($0.kind) \($0.object.path)" })")
    }
}

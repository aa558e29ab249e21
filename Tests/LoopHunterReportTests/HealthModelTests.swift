import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Schema 1.3 (event-loop health): decoding the new report kinds and summary sections, older files
/// still read, callbacks symbolized at their entry address, and the grouping and titles of the
/// four kinds.
@Suite("Event-loop health: model and analysis")
struct HealthModelTests {
    @Test("the reader reads schema 1.3 (and later minor versions)")
    func version() {
        #expect(SchemaVersion.current >= SchemaVersion(major: 1, minor: 3) && SchemaVersion.current.major == 1)
    }

    @Test("real stall reports: sampled by signal while running, and by scan while blocked")
    func stalls() throws {
        let signal = try HealthFixtures.report("report-5101-1e1e0009-000001-stall.json")
        #expect(signal.version == "1.3" && signal.kind == "stall" && signal.countUnit == "ms in one iteration")
        #expect(signal.object.type == "(event loop)" && signal.object.address == "0x0")
        let s = try #require(signal.stall)
        #expect(s.durationMs == 2500 && s.durationMs == signal.count && !s.ongoing && s.method == "signal")
        #expect(s.syscall == nil && s.sampledAfterMs == 1701 && s.samples == 1)
        #expect(signal.window == nil && signal.timer == nil && signal.createdFrames == nil, "absent sections are nil")

        let scan = try HealthFixtures.report("report-5101-1e1e0009-000002-stall.json")
        let t = try #require(scan.stall)
        #expect(t.method == "scan" && t.syscall == "clock_nanosleep" && t.sampledAfterMs == 1552)
        #expect(scan.frames.first?.symbol == "clock_nanosleep", "the top frame of a scan is exact")
    }

    @Test("slow-window, timer-storm and timer-outlives-target reports")
    func windowAndTimers() throws {
        let window = try HealthFixtures.report("report-5101-1e1e0009-000003-slow-window.json")
        let w = try #require(window.window)
        #expect(window.hook.family == "window" && w.since == "map" && w.painted && w.firstFrameUs == 2_650_112)
        #expect(w.timeToFirstFrameMs == 2530 && w.title == nil && w.slowest.count == 2)
        #expect(w.slowest[0].callback?.offset == "0x3e10" && w.slowest[0].durationUs == 2_000_000)

        let storm = try HealthFixtures.report("report-5202-2f2f000a-000001-timer-storm.json")
        let timer = try #require(storm.timer)
        #expect(timer.source == "g_timeout_add" && timer.intervalMs == 100 && timer.liveSources == 524)
        #expect(timer.storm?.reason == "growth" && timer.storm?.iterations == 60 && timer.storm?.startLive == 12)
        #expect(timer.storm?.firesInIteration == nil)
        #expect(storm.createdFrames == nil)

        let outlives = try HealthFixtures.report("report-5202-2f2f000a-000002-timer-outlives-target.json")
        #expect(outlives.timer?.storm == nil && outlives.timer?.freedDuringDispatch == false)
        #expect(outlives.threshold == 0 && outlives.createdFrames?.count == 3)
        #expect(outlives.timer?.callback?.symbol == "blink_cursor")
    }

    @Test("summaries: the real one (stalls, no windows nor timers listed) and one with windows and timers")
    func summaries() throws {
        let real = try HealthFixtures.summary("summary-5101-1e1e0009.json")
        #expect(real.stalls?.count == 2 && real.stalls?.longestMs == 2500 && real.stalls?.stallMs == 2000)
        #expect(real.stalls?.watchdog?.signals == 1 && real.stalls?.watchdog?.scans == 1 && real.stalls?.watchdog?.lost == 0)
        #expect(real.windows == nil && real.timers == nil && real.windowMs == nil)

        let gtk = try HealthFixtures.summary("summary-5202-2f2f000a.json")
        let windows = try #require(gtk.windows)
        #expect(windows.count == 3 && gtk.windowsTruncated == false && gtk.windowMs == 2000)
        #expect(windows[2].painted == false && windows[2].firstFrameUs == nil)
        #expect(gtk.timers?.live == 526 && gtk.timers?.outlived == 1)

        let overview = ProcessOverview(gtk)
        #expect(overview.windows?.map(\.timeToFirstFrameMs) == [79, 2530, nil])
        #expect(overview.windows?[1].slowestStep == "map on GtkTreeView")
        #expect(overview.stallCount == 0 && overview.timers?.created == 640)
    }

    @Test("schema 1.5 summaries: state, toolkits, objects tracked, destroyed objects, window counts; older ones read them as nil")
    func summaryKeepsWhatWasSeen() throws {
        let gtk = try HealthFixtures.summary("summary-5202-2f2f000a.json")
        #expect(gtk.version == "1.5" && gtk.state == "exited" && gtk.updated == gtk.ended)
        #expect(gtk.toolkits == [SummaryToolkit(name: "GTK 3", library: "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0", supported: true)])
        #expect(gtk.objectsTracked == 7 && gtk.classesTracked == 3 && gtk.classesTruncated == false && gtk.objectsDestroyed == 1)
        #expect(gtk.topObjects?.filter { $0.destroyed == true }.map(\.calls) == [41])
        let windows = try #require(gtk.windows)
        #expect(UInt64(windows.count) + (gtk.windowsNeverShown ?? 0) + (gtk.windowsDropped ?? 0) == gtk.windowsSeen)
        #expect(gtk.windowsPopups == 4 && gtk.windowsLimit == 256)
        let overview = ProcessOverview(gtk)
        #expect(overview.state == "exited" && overview.toolkits?.first?.name == "GTK 3" && overview.objectsTracked == 7)

        // A 1.4 preload wrote null as a never-painted window's time to first frame: still read.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: HealthFixtures.directory
            .appendingPathComponent("summary-5202-2f2f000a.json"))) as? [String: Any])
        var listed = try #require(json["windows"] as? [[String: Any]])
        listed[2]["time_to_first_frame_ms"] = NSNull()
        json["windows"] = listed
        json["version"] = "1.4"
        guard case .summary(let old) = try ReportFile.decode(try JSONSerialization.data(withJSONObject: json), path: "1.4") else {
            Issue.record("not a summary")
            return
        }
        #expect(old.windows?[2].timeToFirstFrameMs == nil)
        #expect(ProcessOverview(old).windows?[2].waitedMs == nil)

        let older = try HealthFixtures.summary("summary-5101-1e1e0009.json")
        #expect(older.version == "1.3" && older.state == nil && older.updated == nil && older.toolkits == nil)
        #expect(older.objectsTracked == nil && older.windowsSeen == nil)
        #expect(older.topObjects?.allSatisfy { $0.destroyed == nil } == true)
    }

    @Test("1.0-1.2 files still read: what they lack is nil")
    func olderFiles() throws {
        let collection = try Fixtures.collection()
        #expect(!collection.reports.isEmpty && collection.problems.isEmpty)
        for located in collection.reports {
            #expect(located.report.stall == nil && located.report.window == nil && located.report.timer == nil)
            #expect(located.report.createdFrames == nil)
        }
        for located in collection.summaries {
            let s = located.summary
            #expect(s.stalls == nil && s.windows == nil && s.windowsTruncated == nil && s.windowMs == nil && s.timers == nil)
        }
    }

    @Test("a callback is an entry address: looked up at its offset, a stack frame at offset - 1")
    func entryAddresses() throws {
        let callback = try Self.frame(pc: "0x55da3cfede10", module: "/opt/demo/bin/toykit-demo", offset: "0x3e10")
        let entry = try #require(CodeAddress(callback: callback))
        let ret = try #require(CodeAddress(callback))
        #expect(!entry.isReturnAddress && entry.lookupOffset == 0x3e10)
        #expect(ret.isReturnAddress && ret.lookupOffset == 0x3e0f)
        #expect(entry != ret, "one offset, two lookups")
    }

    @Test("llvm-symbolizer names a function at its entry address, and not one byte before it")
    func entrySymbolization() throws {
        guard let tool = ToolLocator.symbolizer() else { return }
        // nanosleep's entry in this process's libc, as a callback frame object would carry it.
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "nanosleep"))
        let address = UInt(bitPattern: symbol)
        // The module holding it, and its load base: the mapping of that file at file offset 0.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        var mappings: [(start: UInt, end: UInt, path: String, fileOffset: UInt)] = []
        for line in String(decoding: file.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6 else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2, let fileOffset = UInt(fields[2], radix: 16) else { continue }
            mappings.append((bounds[0], bounds[1], String(fields[5]), fileOffset))
        }
        let path = try #require(mappings.first { $0.start <= address && address < $0.end }?.path)
        let base = try #require(mappings.first { $0.path == path && $0.fileOffset == 0 }?.start)
        let offset = UInt64(address - base)
        let frame = try Self.frame(pc: "0x" + String(UInt(bitPattern: symbol), radix: 16), module: path,
                                   offset: "0x" + String(offset, radix: 16))
        let entry = try #require(CodeAddress(callback: frame))
        let asReturn = try #require(CodeAddress(frame))
        let lookups = LLVMSymbolizer(tool: tool).symbolize([entry, asReturn])
        let named = lookups[entry]?.symbols.last?.function
        #expect(named?.contains("nanosleep") == true, "entry \(frame.offset ?? "") named \(named ?? "nil")")
        #expect(lookups[asReturn]?.symbols.last?.function?.contains("nanosleep") != true,
                "one byte before the entry is not the function")
    }

    /// A frame object as a report carries it (callbacks are decoded as ``Frame``s).
    static func frame(pc: String, module: String, offset: String) throws -> Frame {
        let json = ["pc": pc, "module": module, "offset": offset]
        return try JSONDecoder().decode(Frame.self, from: JSONSerialization.data(withJSONObject: json))
    }

    @Test("the analyzer names callbacks at their entry, groups and titles the four kinds")
    func analysis() throws {
        let a = try HealthFixtures.analysis()
        #expect(a.findings.map(\.kind.rawValue).sorted() == ["slow-window", "stall", "stall", "timer-outlives-target", "timer-storm"])
        let stalls = a.findings.filter { $0.kind == "stall" }
        #expect(Set(stalls.compactMap { $0.appFrame?.primary?.function }) == ["stall_compute", "stall_sleep"],
                "stalls are grouped by their first app frame")
        #expect(stalls.allSatisfy { $0.severity == .error })
        let compute = try #require(stalls.first { $0.appFrame?.primary?.function == "stall_compute" })
        #expect(compute.title == "event loop of thread 'toykit-demo' stuck 2500 ms in one iteration (limit 2000 ms), in stall_compute")

        let window = try #require(a.findings.first { $0.kind == "slow-window" })
        #expect(window.severity == .warning && window.title == "TkWindow 'main' took 2530 ms to its first frame (limit 2000 ms)")
        #expect(window.slowestSteps?.map(\.label) == ["slow_window_build (idle)", "toykit-demo+0x3d40 (timer)"])

        let storm = try #require(a.findings.first { $0.kind == "timer-storm" })
        #expect(storm.timerCallback?.primary?.function == "refresh_clock" && storm.appFrame?.primary?.function == "start_clock")
        #expect(storm.title.hasPrefix("g_timeout_add sources calling refresh_clock created faster than destroyed: 512 added over 60 iterations"))

        let outlives = try #require(a.findings.first { $0.kind == "timer-outlives-target" })
        #expect(outlives.severity == .error && outlives.appFrame?.primary?.function == "close_editor")
        #expect(outlives.createdStack?.compactMap { $0.primary?.function } == ["g_timeout_add", "open_editor", "main"])

        let gtk = try #require(a.processes.first { $0.pid == 5202 })
        #expect(gtk.windows?.count == 3)
    }

    @Test("health kinds are grouped by their first app frame only; timers by their callback too")
    func grouping() {
        func frame(_ index: Int, _ function: String) -> SymbolizedFrame {
            SymbolizedFrame(index: index, pc: "0x\(index)", module: "/opt/app", offset: "0x\(index)",
                            symbols: [SourceSymbol(function: function)], source: .debugInfo, note: nil, origin: .app)
        }
        let a = [frame(0, "stuck_here"), frame(1, "caller_one")]
        let b = [frame(0, "stuck_here"), frame(1, "caller_two")]
        for kind: ReportKind in ["stall", "slow-window", "timer-storm", "timer-outlives-target"] {
            let depth = kind.grouping.depth
            #expect(Analyzer.groupKey(kind: kind, hook: "h", type: "t", frames: a, depth: depth)
                    == Analyzer.groupKey(kind: kind, hook: "h", type: "t", frames: b, depth: depth), "\(kind)")
        }
        #expect(Analyzer.groupKey(kind: "layout-storm", hook: "h", type: "t", frames: a)
                != Analyzer.groupKey(kind: "layout-storm", hook: "h", type: "t", frames: b))
        #expect(Analyzer.groupKey(kind: "timer-storm", hook: "h", type: "t", detail: "callback app:tick", frames: a, depth: 1)
                != Analyzer.groupKey(kind: "timer-storm", hook: "h", type: "t", detail: "callback app:tock", frames: a, depth: 1))
    }
}

import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The memory side of reports (schema 1.2): decoding it and older files, how bytes are written,
/// the titles, severities and grouping of `alloc-storm` and `heap-growth`, how every format shows
/// the allocation facts, and a run with the alloc hook family switched off.
@Suite("allocation accounting in reports and formats")
struct AllocFindingTests {

    // MARK: Decoding

    @Test("1.2 reports decode with their memory side: alloc-storm, heap-growth, a layout report")
    func reports() throws {
        let storm = try Self.report(Fixtures.stormFile)
        #expect(storm.version == "1.2" && storm.kind == "alloc-storm")
        #expect(storm.hook.name == "malloc" && storm.hook.family == "alloc" && storm.hook.toolkit == nil)
        #expect(storm.countUnit == "bytes allocated in one iteration" && storm.threshold == 64 << 20)
        let alloc = try #require(storm.alloc)
        // The list's second layout (none is reported in a thread's first iteration): its 1,536 rows
        // rebuilt, the old ones freed as it goes; it crossed 64 MiB at the 1,366th row.
        #expect(alloc.iterationBytes == storm.count && alloc.iterationCalls == 1366 && alloc.iterationFreedBytes == storm.count)
        #expect(alloc.object?.layouts == 2 && alloc.object?.calls == 1536 + 1366 && (alloc.object?.bytes ?? 0) > storm.count)
        #expect(alloc.growth == nil)
        let top = try #require(alloc.topAllocators.first)
        #expect(top.type == "ListView" && top.name == nil && top.hook == "tk_view_layout" && top.address == storm.object.address)
        #expect(storm.history.last?.allocBytes == storm.count && storm.history.last?.allocCalls == 1366)

        let growth = try Self.report(Fixtures.growthFile)
        #expect(growth.kind == "heap-growth" && growth.countUnit == "bytes of heap growth")
        #expect(growth.object.type == "(process heap)" && growth.object.address == "0x0" && growth.object.name == nil)
        let heap = try #require(growth.alloc)
        #expect(heap.object == nil)
        let run = try #require(heap.growth)
        #expect(run.iterations == 64 && run.startLiveBytes == 648)
        #expect(heap.liveBytes - run.startLiveBytes == growth.count, "the count is the growth of the live heap")
        #expect(heap.topAllocators.first?.type == "ListView" && (heap.topAllocators.first?.bytes ?? 0) > 64 << 20)
        #expect(growth.history.count == 32 && growth.history.allSatisfy { $0.allocBytes != nil && $0.freedBytes != nil })

        let streak = try Self.report(Fixtures.gtkFile)
        #expect(streak.kind == "layout-streak" && streak.historyUnit == "frame")
        #expect(streak.alloc?.object?.bytes == 9000 && streak.alloc?.object?.layouts == 62)
        #expect(streak.alloc?.topAllocators.count == 5)
    }

    @Test("a 1.2 summary decodes: the alloc totals, per-thread counters, null calls of the malloc-family hooks")
    func summary() throws {
        let summary = try Self.summary(Fixtures.stormSummaryFile)
        #expect(summary.version == "1.2")
        let alloc = try #require(summary.alloc)
        #expect(alloc.mallocIsOurs && alloc.usableSize.contains("glibc"))
        #expect(alloc.liveBytes == alloc.bytes - alloc.freedBytes, "one thread, nothing allocated before LoopHunter")
        #expect(alloc.threadsCounting == 1 && alloc.threadsWithoutCounters == 0)
        #expect(alloc.topAllocators.first?.type == "ListView" && alloc.topAllocators.first?.layouts == 30)
        #expect(alloc.topAllocators.allSatisfy { $0.name == nil }, "summaries carry no names")
        let thread = try #require(summary.threads.first?.alloc)
        #expect(thread.calls == alloc.calls && thread.bytes == alloc.bytes && thread.frees == alloc.frees)
        let mallocRows = summary.hooks.filter { $0.family == "alloc" }
        #expect(mallocRows.map(\.name).contains("malloc") && mallocRows.allSatisfy { $0.calls == nil })
        #expect(summary.hooks.filter { $0.family != "alloc" }.allSatisfy { $0.calls != nil })
        #expect(summary.config["LOOPHUNTER_ALLOC_BYTES"] == .number(64 << 20))
    }

    @Test("1.0 and 1.1 files still decode, without a memory side")
    func olderVersions() throws {
        let old = try Self.report("report-4101-aaaa0001-000001-layout-storm.json")
        #expect(old.version == "1.0" && old.alloc == nil)
        #expect(old.history.allSatisfy { $0.allocCalls == nil && $0.allocBytes == nil && $0.freedBytes == nil })
        let oldSummary = try Self.summary("summary-4101-aaaa0001.json")
        #expect(oldSummary.alloc == nil && oldSummary.threads.allSatisfy { $0.alloc == nil })
        #expect(oldSummary.hooks.allSatisfy { $0.calls != nil })

        // A 1.1 file: the GTK report without what 1.2 added.
        let report = try Fixtures.decodeReport(Fixtures.edited(Fixtures.gtkFile) { object in
            object["version"] = "1.1"
            object["alloc"] = nil
            object["history"] = (object["history"] as? [[String: Any]])?.map { entry in
                entry.filter { !["alloc_calls", "alloc_bytes", "freed_bytes"].contains($0.key) }
            }
        })
        #expect(report.version == "1.1" && report.alloc == nil && report.historyUnit == "frame")
        #expect(report.history.allSatisfy { $0.allocBytes == nil } && report.history.contains { $0.objectSize != nil })
        let summary = try Fixtures.decodeSummary(Fixtures.edited(Fixtures.stormSummaryFile) { object in
            object["version"] = "1.1"
            object["alloc"] = nil
            object["hooks"] = (object["hooks"] as? [[String: Any]])?.filter { $0["family"] as? String != "alloc" }
            object["threads"] = (object["threads"] as? [[String: Any]])?.map { $0.filter { $0.key != "alloc" } }
        })
        #expect(summary.alloc == nil && summary.threads.first?.alloc == nil)
    }

    // MARK: Bytes

    @Test("bytes are written for people: binary units, one decimal, whole units without")
    func byteCounts() {
        let cases: [(UInt64, String)] = [
            (0, "0 B"), (1023, "1023 B"), (1024, "1 KiB"), (1536, "1.5 KiB"), (648, "648 B"),
            (9016, "8.8 KiB"), (64 << 20, "64 MiB"), (67_152_560, "64.0 MiB"), (67_369_984, "64.2 MiB"),
            (1_048_575, "1.0 MiB"), (2_265_297_552, "2.1 GiB"), (3 << 40, "3 TiB"), (UInt64.max, "16.0 EiB"),
        ]
        for (bytes, text) in cases {
            #expect(ByteCount(bytes).description == text, "\(bytes)")
        }
    }

    // MARK: Analysis

    @Test("titles and severities of alloc-storm and heap-growth")
    func titles() throws {
        let a = try Fixtures.analysis()
        let storm = try #require(a.findings.first { $0.kind == "alloc-storm" })
        #expect(storm.title == "ListView 'list' allocated 64.0 MiB in one iteration (limit 64 MiB)")
        #expect(storm.severity == .error && storm.suppressed == 28)
        #expect(storm.appFrame?.primary?.function == "alloc_storm_list_layout")
        let growth = try #require(a.findings.first { $0.kind == "heap-growth" })
        #expect(growth.title == "the heap grew 64.2 MiB over 64 iterations (limit 64 MiB); "
                + "the layouts of ListView allocated the most (64.2 MiB)")
        #expect(growth.severity == .warning)
        #expect(ReportKind.allocStorm.severity == .error && ReportKind.heapGrowth.severity == .warning)

        // The storm counted in allocations (by the list's own layouts), and one outside any layout.
        let byCalls = try Fixtures.analysis(of: [Fixtures.edited(Fixtures.stormFile) { object in
            object["count"] = 1_000_001
            object["threshold"] = 1_000_000
            object["count_unit"] = "allocations in one iteration"
            var alloc = object["alloc"] as? [String: Any] ?? [:]
            alloc["object"] = ["bytes": 142_662_320, "calls": 1_000_001, "layouts": 2]
            object["alloc"] = alloc
        }])
        #expect(byCalls.findings.first?.title == "ListView 'list' made 1000001 allocations in one iteration (limit 1000000)")
        let outside = try Fixtures.analysis(of: [Fixtures.edited(Fixtures.stormFile) { object in
            object["object"] = ["address": "0x0", "type": "(no layout running)", "name": NSNull(), "path": "(no layout running)",
                                "ancestors": [Any](), "ancestors_truncated": false, "geometry": NSNull()]
        }])
        #expect(outside.findings.first?.title == "code outside any layout allocated 64.0 MiB in one iteration (limit 64 MiB)")
        // A growth in frames, with no layout to blame.
        let frames = try Fixtures.analysis(of: [Fixtures.edited(Fixtures.growthFile) { object in
            object["history_unit"] = "frame"
            var alloc = object["alloc"] as? [String: Any] ?? [:]
            alloc["top_allocators"] = [Any]()
            object["alloc"] = alloc
        }])
        #expect(frames.findings.first?.title == "the heap grew 64.2 MiB over 64 frames (limit 64 MiB)")
    }

    @Test("grouping: one alloc-storm whichever malloc-family call crossed; heap growths by top allocator")
    func grouping() throws {
        let storm = try Fixtures.edited(Fixtures.stormFile) { _ in }
        let calloc = try Fixtures.edited(Fixtures.stormFile) { object in
            object["hook"] = ["name": "calloc", "family": "alloc", "toolkit": NSNull()]
            object["process"] = ["pid": 4999, "ppid": 1, "executable": "/opt/demo/bin/toykit-demo"]
        }
        let storms = try Fixtures.analysis(of: [storm, calloc])
        #expect(storms.findings.count == 1 && storms.findings.first?.reportCount == 2)

        let growth = try Fixtures.edited(Fixtures.growthFile) { _ in }
        let again = try Fixtures.edited(Fixtures.growthFile) { object in
            object["process"] = ["pid": 4998, "ppid": 1, "executable": "/opt/demo/bin/toykit-demo"]
        }
        let other = try Fixtures.edited(Fixtures.growthFile) { object in
            var alloc = object["alloc"] as? [String: Any] ?? [:]
            var tops = alloc["top_allocators"] as? [[String: Any]] ?? []
            tops[0]["type"] = "GridView"
            alloc["top_allocators"] = tops
            object["alloc"] = alloc
        }
        let growths = try Fixtures.analysis(of: [growth, again, other])
        #expect(growths.findings.map(\.reportCount).sorted() == [1, 2], "\(growths.findings.map(\.title))")
        #expect(Set(growths.findings.map(\.id)).count == 2)
    }

    // MARK: Formats

    @Test("text, Markdown, JUnit and the process lines show the memory facts of findings that have them")
    func textFormats() throws {
        let a = try Fixtures.analysis()
        let storm = try #require(a.findings.first { $0.kind == "alloc-storm" })
        let growth = try #require(a.findings.first { $0.kind == "heap-growth" })
        let old = try #require(a.findings.first { $0.kind == "layout-storm" })
        let text = TextFormatter()
        let block = text.block(storm)
        #expect(block.contains("   alloc    bytes allocated in the last 2 iterations: █▇ (max 72.0 MiB)"))
        #expect(block.contains("   memory   iteration 2: 64.0 MiB allocated in 1366 calls, 64.0 MiB freed; live heap 72.0 MiB"))
        #expect(block.contains("   layout   the layout of ListView 'list' allocated 136.1 MiB in 2 passes (2902 allocations) so far"))
        #expect(block.contains("   top      ListView (tk_view_layout) 136.1 MiB in 2902 allocations over 2 layouts"))
        #expect(text.block(growth).contains("   growth   the live heap grew from 648 B to 64.2 MiB over 64 iterations"))
        #expect(!text.block(old).contains("memory") && !text.block(old).contains("bytes allocated"), "1.0 reports have none")
        let process = try #require(a.processes.first { $0.pid == 4611 })
        #expect(text.processLine(process).hasSuffix("; 2.1 GiB allocated in 46090 calls, 4.0 KiB live at exit"))
        let oldProcess = try #require(a.processes.first { $0.pid == 4101 })
        #expect(!text.processLine(oldProcess).contains("allocated"))

        let markdown = MarkdownFormatter().format(a)
        #expect(markdown.contains("- **memory:** iteration 2: 64.0 MiB allocated in 1366 calls, 64.0 MiB freed; live heap 72.0 MiB"))
        #expect(markdown.contains("| 64.0 MiB / 64 MiB |"), "counts in bytes are written as bytes in the table")
        #expect(markdown.contains("| 101 / 100 |"))

        let junit = JUnitFormatter().format(a)
        #expect(junit.contains("growth   the live heap grew from 648 B to 64.2 MiB over 64 iterations"))
        #expect(junit.contains("message=\"ListView 'list' allocated 64.0 MiB in one iteration (limit 64 MiB)\""))
    }

    @Test("the HTML timeline plots bytes allocated beside layout calls, per iteration")
    func htmlTimeline() throws {
        let html = HTMLFormatter().format(try Fixtures.analysis())
        let sections = html.components(separatedBy: "<section class=\"finding ")
        let storm = try #require(sections.first { $0.contains("<span class=\"kind\">alloc-storm</span>") })
        let svg = try #require(storm.components(separatedBy: "<svg ").dropFirst().first)
        let layoutPanel = try #require(svg.range(of: ">layout calls</text>"))
        let bytesPanel = try #require(svg.range(of: ">bytes allocated</text>"), "a bytes series")
        let busyPanel = try #require(svg.range(of: ">busy time (µs)</text>"))
        #expect(layoutPanel.lowerBound < bytesPanel.lowerBound && bytesPanel.lowerBound < busyPanel.lowerBound,
                "bytes right under layout calls")
        #expect(svg.contains("<title>iteration 2: 64.0 MiB bytes allocated (breach)</title>"), "the breach's bar, in bytes")
        #expect(svg.contains(">72.0 MiB</text>"), "the panel's maximum, in bytes")
        #expect(svg.contains("bytes allocated per iteration: 2: 72.0 MiB"), "the text alternative")
        #expect(storm.contains("Layout calls (bars), bytes allocated (bars) and busy time (line) per event-loop iteration"))
        #expect(storm.contains("<dt>memory</dt><dd>iteration 2: 64.0 MiB allocated in 1366 calls, 64.0 MiB freed; live heap 72.0 MiB</dd>"))

        let gtk = try #require(sections.first { $0.contains("LhLabel &#39;status&#39; relaid out") })
        let gtkSVG = try #require(gtk.components(separatedBy: "<svg ").dropFirst().first)
        #expect(gtkSVG.components(separatedBy: "bytes allocated (breach)</title>").count == 2)
        #expect(gtkSVG.components(separatedBy: " bytes allocated</title>").count - 1 == 31, "one bar per frame of 32")

        let old = try #require(sections.first { $0.contains("report-4101-aaaa0001") })
        #expect(!old.contains("bytes allocated") && old.contains("Layout calls (bars) and busy time (line)"))
    }

    @Test("SARIF: rules for both kinds, the memory side in messages and properties, valid")
    func sarif() throws {
        let text = SARIFFormatter().format(try Fixtures.analysis())
        let run = try #require(FormatValidators.sarifRuns(text).first)
        let rules = (run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]] ?? []
        func rule(_ id: String) -> [String: Any]? { rules.first { $0["id"] as? String == id } }
        #expect(rule("alloc-storm")?["name"] as? String == "AllocStorm")
        #expect((rule("alloc-storm")?["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        #expect(rule("heap-growth")?["name"] as? String == "HeapGrowth")
        #expect((rule("heap-growth")?["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        #expect(((rule("heap-growth")?["properties"] as? [String: Any])?["tags"] as? [String])?.contains("memory") == true)
        #expect(((rule("alloc-storm")?["help"] as? [String: Any])?["text"] as? String)?.contains("How to fix") == true)

        let results = try #require(run["results"] as? [[String: Any]])
        func result(_ kind: String) -> [String: Any]? { results.first { $0["ruleId"] as? String == kind } }
        let storm = try #require(result("alloc-storm"))
        #expect(storm["level"] as? String == "error")
        let stormAlloc = try #require((storm["properties"] as? [String: Any])?["alloc"] as? [String: Any])
        #expect(stormAlloc["iterationBytes"] as? Int == 67_152_560 && stormAlloc["liveBytes"] as? Int == 75_510_408)
        #expect((stormAlloc["object"] as? [String: Any])?["layouts"] as? Int == 2)
        #expect(((storm["message"] as? [String: Any])?["text"] as? String)?
            .contains("Memory: iteration 2: 64.0 MiB allocated in 1366 calls") == true)
        let growth = try #require(result("heap-growth"))
        #expect(growth["level"] as? String == "warning")
        let growthAlloc = try #require((growth["properties"] as? [String: Any])?["alloc"] as? [String: Any])
        #expect(growthAlloc["growthIterations"] as? Int == 64 && growthAlloc["growthStartLiveBytes"] as? Int == 648)
        #expect((growthAlloc["topAllocators"] as? [[String: Any]])?.first?["type"] as? String == "ListView")
        let old = try #require(result("layout-storm"))
        #expect((old["properties"] as? [String: Any])?["alloc"] == nil, "no memory side in 1.0 reports")
        try FormatValidators.validate(sarif: text, label: "alloc")
    }

    @Test("JSON: each finding carries its report's alloc section, each process its allocation totals")
    func json() throws {
        let text = JSONFormatter().format(try Fixtures.analysis())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["version"] as? String == "1.4", "analysis schema 1.4: each layout finding's `cause` with its script stack")
        let analysis = try #require(document["analysis"] as? [String: Any])
        let findings = try #require(analysis["findings"] as? [[String: Any]])
        let growth = try #require(findings.first { $0["kind"] as? String == "heap-growth" })
        #expect(((growth["alloc"] as? [String: Any])?["growth"] as? [String: Any])?["start_live_bytes"] as? Int == 648)
        #expect(findings.first { $0["kind"] as? String == "layout-storm" }?["alloc"] == nil)
        let processes = try #require(analysis["processes"] as? [[String: Any]])
        let storm = try #require(processes.first { $0["pid"] as? Int == 4611 })
        #expect(storm["allocatedBytes"] as? Int == 2_265_297_552 && storm["liveBytes"] as? Int == 4104)
        #expect(storm["mallocIsOurs"] as? Bool == true)
    }

    // MARK: The preload with the alloc family off

    @Test("with the alloc family off, reports and summaries have no memory side, and the formats show none")
    func allocOff() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("alloc-off")
        defer { dir.remove() }
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir.path, extra: ["LOOPHUNTER_HOOKS": "layout,loop,log"])
        #expect(run.status == 0 && run.loophunterLines.isEmpty, "\(run.stderr)")
        let report = try #require(try dir.reports().first)
        #expect(report.version == SchemaVersion.current.description && report.kind == "layout-storm" && report.alloc == nil)
        #expect(report.history.allSatisfy { $0.allocCalls == nil && $0.allocBytes == nil && $0.freedBytes == nil })
        let summary = try #require(try dir.summaries().first)
        #expect(summary.alloc == nil && summary.threads.allSatisfy { $0.alloc == nil })
        #expect(summary.hooks.filter { $0.family == "alloc" }.allSatisfy { !$0.enabled && $0.calls == nil })

        let analysis = Analyzer(symbolizer: nil).analyze(try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read())
        let finding = try #require(analysis.findings.first)
        #expect(!TextFormatter().block(finding).contains("memory"))
        #expect(!HTMLFormatter().format(analysis).contains("bytes allocated"))

        // And on (the default), the same scenario's layout report carries it.
        let on = ReportDirectory("alloc-on")
        defer { on.remove() }
        _ = HostRun.underPreload([Native.demo, "loop"], dir: on.path)
        let counted = try #require(try on.reports().first)
        #expect(counted.alloc?.object?.layouts ?? 0 > 100, "the looping label's layouts, with what they allocated")
        #expect(counted.history.allSatisfy { $0.allocBytes != nil })
        #expect(try on.summaries().first?.alloc?.mallocIsOurs == true)
    }
}

// MARK: - Fixtures, edited

extension AllocFindingTests {
    static func report(_ file: String) throws -> Report {
        guard case .report(let report) = try ReportFile.load(Fixtures.reports.appendingPathComponent(file)) else {
            throw FixtureError(description: "\(file) is not a report")
        }
        return report
    }

    static func summary(_ file: String) throws -> Summary {
        guard case .summary(let summary) = try ReportFile.load(Fixtures.reports.appendingPathComponent(file)) else {
            throw FixtureError(description: "\(file) is not a summary")
        }
        return summary
    }
}

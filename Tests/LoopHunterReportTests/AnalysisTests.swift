import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Grouping, symbolization fallbacks and the text and JSON formats, on the fixture reports.
@Suite("analysis of the fixture reports")
struct AnalysisTests {
    @Test("reports group by kind, hook, type and app code, across processes")
    func grouping() throws {
        let a = try Fixtures.analysis()
        #expect(a.reportCount == 8 && a.processes.count == 4 && a.problems.isEmpty)
        #expect(a.findings.count == 7, "\(a.findings.map(\.title))")
        #expect(a.findings.map(\.kind) == ["layout-storm", "layout-streak", "layout-storm", "layout-storm", "alloc-storm",
                                          "layout-streak", "heap-growth"], "errors first, then by reports and time")
        let storm = try #require(a.findings.first { $0.object.name == "status" && $0.kind == "layout-storm" })
        #expect(storm.reportCount == 2 && storm.processes.map(\.pid) == [4101, 4207])
        #expect(storm.suppressed == 4, "the preload's throttled repeats, from the summary")
        #expect(storm.appFrame?.primary?.function == "loop_toolbar_layout")
        #expect(storm.appFrame?.primary?.shortLocation == "scenario_loop.c:42")
        #expect(storm.members.map(\.name) == ["toolbar"])
        let worker = try #require(a.findings.first { $0.object.name == "worker-status" })
        #expect(worker.threads == ["ui-worker"])
        #expect(worker.id != storm.id, "the same layout function reached from another app function is another group")
    }

    @Test("a rebuilt module and a stripped library fall back to in-process names, and say so")
    func fallbacks() throws {
        let a = try Fixtures.analysis()
        let clock = try #require(a.findings.first { $0.object.name == "clock" })
        let names = clock.stack.map { ($0.moduleName ?? "", $0.displayName, $0.source) }
        #expect(names[1] == ("libstripped.so", "vendor_relayout_all", .inProcess), "exported name proven in the process")
        #expect(names[2] == ("libstripped.so", "libstripped.so+0x1b10", SymbolSource.none), "never a guessed name")
        #expect(names[3].2 == .inProcess && clock.stack[3].note?.contains("rebuilt since the report") == true)
        #expect(clock.appFrame?.primary?.function == "clock_tick" && clock.appFrame?.primary?.line == 88)
        #expect(a.symbolizationNotes.count == 1 && a.symbolizationNotes[0].contains("libclockface.so"))
    }

    @Test("text format (no colour)")
    func text() throws {
        try Golden.check(OutputFormat.text.formatter(FormatOptions(colors: false)).format(Fixtures.analysis()), "fixtures.txt")
    }

    @Test("text format with colour uses ANSI codes; without, none")
    func colours() throws {
        let a = try Fixtures.analysis()
        #expect(TextFormatter(colors: true).format(a).contains("\u{1B}["))
        #expect(!TextFormatter(colors: false).format(a).contains("\u{1B}"))
    }

    @Test("json format")
    func json() throws {
        let text = try OutputFormat.json.formatter().format(Fixtures.analysis())
        try Golden.check(text, "fixtures.json")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["schema"] as? String == "loophunter/analysis")
    }
}

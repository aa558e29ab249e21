import Foundation
@testable import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The fast report path (``JSONTape``) gives exactly what `JSONDecoder` gives: on every fixture,
/// on what the preload writes for every kind it writes without GTK, on hostile and hand-edited
/// reports; and what it does not take goes to `JSONDecoder`, which reads it as it always did.
@Suite("report tape")
struct ReportTapeTests {
    /// The tape's decode and `JSONDecoder`'s.
    static func decodes(_ data: Data) -> (tape: Report?, full: Report?) {
        (ReportFile.decodeReportFromTape(data), try? JSONDecoder().decode(Report.self, from: data))
    }

    /// Both decodes succeed and agree.
    static func expectSame(_ data: Data, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (tape, full) = decodes(data)
        #expect(full != nil, "\(label): JSONDecoder refused it", sourceLocation: sourceLocation)
        #expect(tape != nil, "\(label): the tape refused it", sourceLocation: sourceLocation)
        #expect(tape == full, "\(label): the tape and JSONDecoder differ", sourceLocation: sourceLocation)
    }

    static func reportFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasPrefix("report-") }
            .map { directory.appendingPathComponent($0) }
    }

    static let base = Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json")

    /// The base fixture with `edit` applied to its text.
    static func edited(_ edit: (String) -> String) throws -> Data {
        Data(edit(try String(contentsOf: base, encoding: .utf8)).utf8)
    }

    @Test("every fixture report: the tape reads it, to the value JSONDecoder gives")
    func fixtures() throws {
        let files = try Self.reportFiles(in: Fixtures.reports) + Self.reportFiles(in: HealthFixtures.directory)
        #expect(files.count >= 13)
        for file in files { Self.expectSame(try Data(contentsOf: file), file.lastPathComponent) }
    }

    @Test("reports the preload writes, of every kind but GTK's toolkit warnings")
    func preloadWritten() throws {
        try Native.ensureBuilt()
        // The last one, layout-streak: what judges loops when layout-loop is off.
        let runs: [(arguments: [String], extra: [String: String?])] =
            ["loop", "oscillate", "alloc-storm", "leak", "stall", "slow-window", "timer-storm", "timer-dangling"]
                .map { ([Native.demo, $0], [:]) } + [([Native.probe, "many-types", "5"], [:]),
                                                      ([Native.demo, "capped-loop"], ["LOOPHUNTER_LOOP_FRAMES": "0"])]
        let dirs = runs.indices.map { ReportDirectory("tape-\($0)") }
        defer { dirs.forEach { $0.remove() } }
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            _ = HostRun.underPreload(runs[i].arguments, dir: dirs[i].path, extra: runs[i].extra, timeout: 120)
        }
        var kinds = Set<String>()
        for dir in dirs {
            for file in try Self.reportFiles(in: URL(fileURLWithPath: dir.path)) {
                let data = try Data(contentsOf: file)
                Self.expectSame(data, file.lastPathComponent)
                if let report = ReportFile.decodeReportFromTape(data) { kinds.insert(report.kind.rawValue) }
            }
        }
        #expect(kinds.isSuperset(of: ["layout-storm", "layout-streak", "layout-loop", "alloc-storm", "heap-growth", "stall",
                                      "slow-window", "timer-storm", "timer-outlives-target"]), "\(kinds.sorted())")
    }

    @Test("hostile names from the C composer: escapes, control characters, U+FFFD, emoji; the memory side")
    func composed() {
        let type = Array("Weird\"Type\\\u{1}\t".utf8) + [0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80] + Array("🙂".utf8)
        let name = Array("line1\nline2 </script>/".utf8) + [0xe2, 0x82]
        let (ok, text) = ComposedReport.compose(type: type, name: name, alloc: true)
        #expect(ok)
        Self.expectSame(text, "composed")
        #expect(ReportFile.decodeReportFromTape(text)?.object.type.hasSuffix("🙂") == true)
    }

    @Test("hand-edited: a toolkit warning with escapes, nulls and absent optional fields, unknown fields, no white space")
    func handEdited() throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.base)) as? [String: Any])
        json["kind"] = "toolkit-warning"
        json["warning"] = ["domain": NSNull(), "level": "critical",
                           "message": "quote \" backslash \\ slash / tab \t é \u{1F642} \u{0}", "format": "%s"]
        json["history_unit"] = NSNull()
        json["created_frames"] = NSNull()
        json["alloc"] = NSNull()
        json["future_field"] = ["nested": [1, -2.5e3, true, NSNull(), ["deep": "x"]]]
        var thread = try #require(json["thread"] as? [String: Any])
        thread["frame"] = UInt64.max
        json["thread"] = thread
        json["timer"] = ["source": "timeout", "data": "0x1", "interval_ms": Int64.min, "created_us": 0, "fires": 1,
                         "live_sources": 2, "callback": ["pc": "0x10", "module": "/m", "offset": "0x10"]]
        let data = try JSONSerialization.data(withJSONObject: json)
        Self.expectSame(data, "hand-edited")
        let report = try #require(ReportFile.decodeReportFromTape(data))
        #expect(report.warning?.message == "quote \" backslash \\ slash / tab \t é \u{1F642} \u{0}")
        #expect(report.warning?.domain == nil && report.historyUnit == nil && report.alloc == nil)
        #expect(report.thread.frame == UInt64.max && report.timer?.intervalMs == Int64.min)
        Self.expectSame(try Self.edited { $0.replacingOccurrences(of: "\"name\": \"status\"", with: #""name": "\ud83d\ude42\u00e9""#) },
                        "escaped surrogate pair")
    }

    /// Files the tape leaves to JSONDecoder: lenient readings JSONDecoder accepts, and faults it
    /// refuses with its own message.
    static let leftToJSONDecoder: [(String, @Sendable (String) -> String)] = [
        ("a field given twice", { $0.replacingOccurrences(of: #""kind": "layout-storm","#, with: #""kind": "layout-storm", "kind": "x","#) }),
        ("an exponent", { $0.replacingOccurrences(of: #""count": 101"#, with: #""count": 1.01e2"#) }),
        ("a fraction", { $0.replacingOccurrences(of: #""count": 101"#, with: #""count": 101.0"#) }),
        ("minus zero", { $0.replacingOccurrences(of: #""pid": 4101"#, with: #""pid": -0"#) }),
        ("a key with an escape", { $0.replacingOccurrences(of: #""threshold""#, with: #""thr\u0065shold""#) }),
        ("a byte order mark", { "\u{FEFF}" + $0 }),
        ("a raw control character", { $0.replacingOccurrences(of: #""schema""#, with: "\"junk\": \"a\u{1}b\", \"schema\"") }),
        ("a lone surrogate in an unknown field", { $0.replacingOccurrences(of: #""schema""#, with: #""junk": "\ud800", "schema""#) }),
        ("nesting deeper than the tape goes", {
            $0.replacingOccurrences(of: #""schema""#, with: "\"junk\": \(String(repeating: "[", count: 40))\(String(repeating: "]", count: 40)), \"schema\"")
        }),
        ("a number too large", { $0.replacingOccurrences(of: #""count": 101"#, with: #""count": 18446744073709551616"#) }),
        ("a required field null", { $0.replacingOccurrences(of: #""kind": "layout-storm""#, with: #""kind": null"#) }),
        ("a lone surrogate in a field", { $0.replacingOccurrences(of: #""name": "status""#, with: #""name": "\udc00""#) }),
        ("trailing garbage", { $0 + " x" }),
        ("cut short", { String($0.prefix(700)) }),
    ]

    @Test("what the tape does not take reads as JSONDecoder reads it", arguments: leftToJSONDecoder.indices)
    func leftToDecoder(_ index: Int) throws {
        let (label, edit) = Self.leftToJSONDecoder[index]
        let data = try Self.edited(edit)
        let (tape, full) = Self.decodes(data)
        #expect(tape == nil, "\(label): the tape took it")
        do {
            let file = try ReportFile.decode(data, path: "edited.json")
            #expect(file == full.map(ReportFile.report), "\(label)")
        } catch {
            #expect(full == nil, "\(label): refused, but JSONDecoder reads it: \(error)")
        }
    }

    @Test("invalid UTF-8 in an unknown field is left to JSONDecoder")
    func invalidUTF8() throws {
        var data = try Self.edited { $0.replacingOccurrences(of: #""schema""#, with: #""junk": "@", "schema""#) }
        let at = try #require(data.firstIndex(of: UInt8(ascii: "@")))
        data[at] = 0xff
        #expect(ReportFile.decodeReportFromTape(data) == nil)
        #expect(try ReportFile.decode(data, path: "x") == (try? JSONDecoder().decode(Report.self, from: data)).map(ReportFile.report))
    }
}

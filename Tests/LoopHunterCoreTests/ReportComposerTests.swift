import Foundation
import LoopHunterCore
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The C report composer writes JSON any decoder accepts, whatever bytes the host's object names
/// contain, and the Swift model reads back what it wrote.
@Suite("report composer")
struct ReportComposerTests {
    @Test("hostile names: quotes, control characters, invalid UTF-8, emoji")
    func hostileNames() throws {
        let type = Array("Weird\"Type\\\u{1}\t".utf8) + [0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80] + Array("🙂".utf8)
        let name = Array("line1\nline2 </script>".utf8) + [0xe2, 0x82] // cut UTF-8 sequence
        let (ok, text) = ComposedReport.compose(type: type, name: name)
        #expect(ok)
        // A strict decoder (Foundation's) accepts it...
        let file = try ReportFile.decode(text, path: "composed.json")
        guard case .report(let report) = file else { Issue.record("not a report"); return }
        // ...and reads back the valid parts exactly, with U+FFFD for each invalid byte.
        #expect(report.object.type == "Weird\"Type\\\u{1}\t\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}🙂")
        #expect(report.object.name == "line1\nline2 </script>\u{FFFD}\u{FFFD}")
        #expect(report.process.executable == "/usr/bin/app\n\"x\"")
        #expect(report.time == "2026-11-21T05:55:37.317967Z")
        #expect(report.fingerprint == "0000000000000abc")
        #expect(report.history.first?.waitMs == nil && report.history.first?.layoutCalls == 101)
        #expect(report.frames.first?.offset == "0x100" && report.frames.first?.module == "/lib/libx.so")
        #expect(report.frames.first?.symbol == nil)
    }

    @Test("a buffer too small says so instead of writing a torn report")
    func overflow() {
        let (ok, text) = ComposedReport.compose(type: Array("T".utf8), name: [], capacity: 300)
        #expect(!ok)
        #expect(text.count < 300)
    }

    @Test("the memory side (schema 1.2) reads back as written; without it, alloc and the history's counts are null")
    func memory() throws {
        let (ok, text) = ComposedReport.compose(type: Array("T".utf8), name: [], alloc: true)
        #expect(ok)
        guard case .report(let report) = try ReportFile.decode(text, path: "alloc.json") else {
            Issue.record("not a report")
            return
        }
        #expect(report.version == SchemaVersion.current.description)
        let alloc = try #require(report.alloc)
        #expect(alloc.iterationCalls == 12 && alloc.iterationBytes == UInt64.max && alloc.iterationFreedBytes == 4096)
        #expect(alloc.liveBytes == 67_370_632)
        #expect(alloc.object?.bytes == 9016 && alloc.object?.calls == 131 && alloc.object?.layouts == 62)
        #expect(alloc.growth?.iterations == 64 && alloc.growth?.startLiveBytes == 648)
        let top = try #require(alloc.topAllocators.first)
        #expect(alloc.topAllocators.count == 1)
        #expect(top.address == "0x555500001234" && top.type == "List\"View" && top.name == nil && top.hook == "tk_view_layout")
        #expect(top.bytes == 67_369_984 && top.calls == 64 && top.layouts == 64)
        let entry = try #require(report.history.first)
        #expect(entry.allocCalls == 7 && entry.allocBytes == 1 << 40 && entry.freedBytes == 3)

        let (_, plain) = ComposedReport.compose(type: Array("T".utf8), name: [])
        let json = try #require(String(data: plain, encoding: .utf8))
        #expect(json.contains("\"alloc\": null") && json.contains("\"alloc_bytes\": null"), "explicit nulls: \(json)")
        guard case .report(let off) = try ReportFile.decode(plain, path: "off.json") else {
            Issue.record("not a report")
            return
        }
        #expect(off.alloc == nil)
        #expect(off.history.first.map { $0.allocCalls == nil && $0.allocBytes == nil && $0.freedBytes == nil } == true)
    }
}

import Foundation
import LoopHunterCore
import LoopHunterReport
import Testing

/// The C report composer writes JSON any decoder accepts, whatever bytes the host's object names
/// contain, and the Swift model reads back what it wrote.
@Suite("report composer")
struct ReportComposerTests {
    /// Composes a report whose object type and name are `type` and `name` (raw bytes).
    static func compose(type: [UInt8], name: [UInt8], capacity: Int = 64 * 1024) -> (ok: Bool, text: Data) {
        var object = lh_object_desc()
        object.address = 0x1234
        withUnsafeMutableBytes(of: &object.node.type) { raw in
            for (i, b) in type.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        withUnsafeMutableBytes(of: &object.node.name) { raw in
            for (i, b) in name.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        var history = [lh_hist(iteration: 3, layout_iter: 2, start_us: 10, busy_us: 5, layout_calls: 101, wait_ms: -2)]
        let strings = CStrings(["layout-storm", "abc-1-1", "/usr/bin/app\n\"x\"", "ui", "tk_view_layout",
                                "layout", "toykit", "layouts in one iteration", "/lib/libx.so"])
        var module = lh_module()
        module.base = 0x1000
        module.path = UnsafePointer(strings.pointers[8])
        var frame = lh_frame(pc: 0x1100, offset: 0x100, module: 0, symbol: nil, symbol_offset: 0)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = lh_buf()
        lh_buf_init(&out, buffer, capacity)
        let ok = withUnsafePointer(to: &object) { objectPtr in
            history.withUnsafeMutableBufferPointer { h in
                withUnsafePointer(to: &module) { m in
                    withUnsafePointer(to: &frame) { f in
                        var data = lh_report_data()
                        data.kind = UnsafePointer(strings.pointers[0])
                        data.id = UnsafePointer(strings.pointers[1])
                        data.wall_ns = 1_795_240_537_317_967_347
                        data.pid = 42
                        data.ppid = 1
                        data.executable = UnsafePointer(strings.pointers[2])
                        data.tid = 43
                        data.thread_name = UnsafePointer(strings.pointers[3])
                        data.hook = UnsafePointer(strings.pointers[4])
                        data.family = UnsafePointer(strings.pointers[5])
                        data.toolkit = UnsafePointer(strings.pointers[6])
                        data.object = objectPtr
                        data.count = 101
                        data.threshold = 100
                        data.count_unit = UnsafePointer(strings.pointers[7])
                        data.history = UnsafePointer(h.baseAddress)
                        data.history_count = 1
                        data.frames = f
                        data.frame_count = 1
                        data.modules = m
                        data.module_count = 1
                        data.fingerprint = 0xabc
                        return lh_report_compose(&out, &data)
                    }
                }
            }
        }
        return (ok, Data(bytes: buffer, count: out.len))
    }

    @Test("hostile names: quotes, control characters, invalid UTF-8, emoji")
    func hostileNames() throws {
        let type = Array("Weird\"Type\\\u{1}\t".utf8) + [0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80] + Array("🙂".utf8)
        let name = Array("line1\nline2 </script>".utf8) + [0xe2, 0x82] // cut UTF-8 sequence
        let (ok, text) = Self.compose(type: type, name: name)
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
        let (ok, text) = Self.compose(type: Array("T".utf8), name: [], capacity: 300)
        #expect(!ok)
        #expect(text.count < 300)
    }
}

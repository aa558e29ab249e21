import Foundation
import LoopHunterCore
import LoopHunterReport
import Testing

/// The C report composer writes JSON any decoder accepts, whatever bytes the host's object names
/// contain, and the Swift model reads back what it wrote.
@Suite("report composer")
struct ReportComposerTests {
    /// Composes a report whose object type and name are `type` and `name` (raw bytes); with
    /// `alloc`, with a memory side (schema 1.2) as a heap-growth report would have it.
    static func compose(type: [UInt8], name: [UInt8], capacity: Int = 64 * 1024, alloc: Bool = false) -> (ok: Bool, text: Data) {
        var object = lh_object_desc()
        object.address = 0x1234
        withUnsafeMutableBytes(of: &object.node.type) { raw in
            for (i, b) in type.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        withUnsafeMutableBytes(of: &object.node.name) { raw in
            for (i, b) in name.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        var history = [lh_hist(iteration: 3, layout_iter: 2, start_us: 10, busy_us: 5, layout_calls: 101, wait_ms: -2,
                               alloc_calls: 7, alloc_bytes: 1 << 40, freed_bytes: 3)]
        let strings = CStrings(["layout-storm", "abc-1-1", "/usr/bin/app\n\"x\"", "ui", "tk_view_layout",
                                "layout", "toykit", "layouts in one iteration", "/lib/libx.so"])
        var module = lh_module()
        module.base = 0x1000
        module.path = UnsafePointer(strings.pointers[8])
        var frame = lh_frame(pc: 0x1100, offset: 0x100, module: 0, symbol: nil, symbol_offset: 0)
        var allocator = lh_report_allocator()
        allocator.address = 0x5555_0000_1234
        allocator.hook = UnsafePointer(strings.pointers[4])
        withUnsafeMutableBytes(of: &allocator.type) { raw in
            for (i, b) in "List\"View".utf8.enumerated() { raw[i] = b }
        }
        allocator.bytes = 67_369_984
        allocator.calls = 64
        allocator.layouts = 64
        var memory = lh_report_alloc()
        memory.iteration_calls = 12
        memory.iteration_bytes = UInt64.max
        memory.iteration_freed_bytes = 4096
        memory.live_bytes = 67_370_632
        memory.has_object = true
        memory.object_bytes = 9016
        memory.object_calls = 131
        memory.object_layouts = 62
        memory.growth_iterations = 64
        memory.growth_start_live_bytes = 648
        memory.top_count = 1
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = lh_buf()
        lh_buf_init(&out, buffer, capacity)
        let ok = withUnsafePointer(to: &object) { objectPtr in
            history.withUnsafeMutableBufferPointer { h in
                withUnsafePointer(to: &module) { m in
                    withUnsafePointer(to: &frame) { f in
                        withUnsafePointer(to: &allocator) { top in
                            memory.top = top
                            return withUnsafePointer(to: &memory) { memoryPtr in
                                var data = lh_report_data()
                                data.kind = LH_KIND_LAYOUT_STORM
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
                                data.alloc = alloc ? memoryPtr : nil
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

    @Test("the memory side (schema 1.2) reads back as written; without it, alloc and the history's counts are null")
    func memory() throws {
        let (ok, text) = Self.compose(type: Array("T".utf8), name: [], alloc: true)
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

        let (_, plain) = Self.compose(type: Array("T".utf8), name: [])
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

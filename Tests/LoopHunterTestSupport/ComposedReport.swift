import Foundation
import LoopHunterCore

/// Reports written by the C report composer (the preload's writer) from Swift-built inputs, for the
/// tests of the composer itself and of the reader that must accept whatever it writes.
package enum ComposedReport {
    /// Composes a report whose object type and name are `type` and `name` (raw bytes); with
    /// `alloc`, with a memory side (schema 1.2) as a heap-growth report would have it.
    package static func compose(type: [UInt8], name: [UInt8], capacity: Int = 64 * 1024, alloc: Bool = false) -> (ok: Bool, text: Data) {
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
}

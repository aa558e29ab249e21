import Foundation
import Testing
import LoopHunterTestSupport

/// The preload carries no runtime of its own (no Swift, no libstdc++) and exports exactly the
/// hook table's names and the documented loophunter_* API.
@Suite("libloophunter.so linkage")
struct PreloadLinkageTests {
    /// libunwind is opened with dlopen when the preload first prepares to report (a program that
    /// never lays out does not map it), so it is not NEEDED either.
    @Test("NEEDED is libc only")
    func needed() throws {
        try Native.ensureBuilt()
        let run = HostRun.run(["/usr/bin/readelf", "-d", Native.preload])
        #expect(run.status == 0, "\(run.stderr)")
        let needed = run.stdout.split(separator: "\n")
            .filter { $0.contains("(NEEDED)") }
            .compactMap { line -> String? in
                guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        let allowed: Set<String> = ["libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0"]
        #expect(needed.contains("libc.so.6"), "\(needed)")
        #expect(Set(needed).isSubset(of: allowed), "unexpected NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("swift") || $0.contains("stdc++") })
    }

    @Test("libunwind is mapped only into a process that lays out or runs an event loop, and its stacks are captured")
    func libunwindOnDemand() throws {
        try Native.ensureBuilt()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lh-unwind-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // cat never lays out: it reads its own maps with the preload loaded and libunwind not.
        let cat = HostRun.underPreload(["/bin/cat", "/proc/self/maps"], dir: dir)
        #expect(cat.status == 0, "\(cat.stderr)")
        #expect(cat.stdout.contains("libloophunter.so"), "the preload is loaded")
        #expect(!cat.stdout.contains("libunwind"), "\(cat.stdout)")
        // toykit's loop: libunwind is opened, and the report's stack names the looping code.
        let loop = HostRun.underPreload([Native.demo, "loop"], dir: dir)
        #expect(loop.status == 0, "\(loop.stderr)")
        let reports = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("report-") }
        #expect(reports.count == 1, "\(reports)")
        for name in reports {
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            #expect(text.contains("\"symbol\": \"tk_view_layout\""),
                    "a stack through toykit's layout: \(text.prefix(600))")
        }
    }

    @Test("the summary lists LoopHunter's own memory: every table it mapped, mapped and resident")
    func memoryInSummary() throws {
        try Native.ensureBuilt()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lh-memory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = HostRun.underPreload([Native.demo, "healthy"], dir: dir, extra: ["LOOPHUNTER_TABLE_SLOTS": "4096"])
        #expect(run.status == 0, "\(run.stderr)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("summary-") })
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))) as? [String: Any])
        let memory = try #require(summary["memory"] as? [String: Any], "\(summary.keys)")
        let parts = try #require(memory["parts"] as? [[String: Any]])
        func part(_ what: String) -> (mapped: Int, resident: Int)? {
            guard let p = parts.first(where: { $0["what"] as? String == what }) else { return nil }
            return ((p["mapped_bytes"] as? Int) ?? -1, (p["resident_bytes"] as? Int) ?? -1)
        }
        // The table is LOOPHUNTER_TABLE_SLOTS slots of 64 bytes; the demo laid views out, so some are resident.
        let slots = try #require(part("table: slots"), "\(parts)")
        #expect(slots.mapped == 4096 * 64 && slots.resident > 0 && slots.resident <= slots.mapped)
        let records = try #require(part("thread records and iteration history"))
        #expect(records.resident > 0 && records.resident <= records.mapped)
        let data = try #require(part("preload data and bss"))
        #expect(data.mapped > 0 && data.resident > 0)
        let total = parts.reduce(0) { $0 + (($1["resident_bytes"] as? Int) ?? 0) }
        #expect(memory["resident_bytes"] as? Int == total && total > 0)
        #expect(memory["mappings_not_listed"] as? Int == 0)
    }

    @Test("exports only the hook table and the loophunter_* API")
    func exports() throws {
        try Native.ensureBuilt()
        let run = HostRun.run(["/usr/bin/nm", "-D", "--defined-only", Native.preload])
        #expect(run.status == 0, "\(run.stderr)")
        let exported = Set(run.stdout.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] != "A" else { return nil } // A: version nodes
            return String(fields[2])
        })
        // The hook table is the single source of truth for interposed names.
        let table = try String(contentsOf: Native.root.appendingPathComponent("CShim/preload/interpose/lh_hooks.def"),
                               encoding: .utf8)
        let hooks = table.split(separator: "\n").compactMap { line -> String? in
            // Every row (a line starting `LH_<SHAPE>_HOOK(`) is an exported symbol but
            // LH_VFUNC_HOOK (vtable slots) and LH_ENTRY_HOOK (entry points seen through another
            // hook, e.g. GTK's request entry points through g_type_check_instance_is_a).
            guard line.hasPrefix("LH_"), let open = line.firstIndex(of: "("), line[..<open].hasSuffix("_HOOK"),
                  !line.hasPrefix("LH_VFUNC_HOOK("), !line.hasPrefix("LH_ENTRY_HOOK(") else { return nil }
            // The name is the first argument: `LH_WAIT_HOOK(poll, ...)`, `LH_ALLOC_HOOK(malloc)`.
            return line.split(separator: "(")[1].split(whereSeparator: { $0 == "," || $0 == ")" })[0]
                .trimmingCharacters(in: .whitespaces)
        }
        #expect(hooks.contains("poll") && hooks.contains("tk_view_layout") && hooks.contains("g_object_new"))
        #expect(hooks.contains("malloc") && hooks.contains("free") && hooks.contains("posix_memalign"))
        let api: Set<String> = ["loophunter_iteration_mark", "loophunter_version", "loophunter_attach", "loophunter_detach"]
        #expect(exported == Set(hooks).union(api), "unexpected: \(exported.subtracting(Set(hooks).union(api))), missing: \(Set(hooks).union(api).subtracting(exported))")
    }

    @Test("the public header declares exactly the exported API")
    func header() throws {
        let header = try String(contentsOf: Native.root.appendingPathComponent("CShim/include/loophunter.h"),
                                encoding: .utf8)
        #expect(header.contains("void loophunter_iteration_mark(void);"))
        #expect(header.contains("const char *loophunter_version(void);"))
    }
}

import Foundation
import Testing
import LoopHunterTestSupport

/// The preload carries no runtime of its own (no Swift, no libstdc++) and exports exactly the
/// hook table's names and the documented loophunter_* API.
@Suite("libloophunter.so linkage")
struct PreloadLinkageTests {
    @Test("NEEDED is libc and libunwind only")
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
        let allowed: Set<String> = ["libc.so.6", "libunwind.so.8", "libm.so.6", "libdl.so.2", "libpthread.so.0"]
        #expect(needed.contains("libc.so.6") && needed.contains("libunwind.so.8"), "\(needed)")
        #expect(Set(needed).isSubset(of: allowed), "unexpected NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("swift") || $0.contains("stdc++") })
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
        let api: Set<String> = ["loophunter_iteration_mark", "loophunter_version"]
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

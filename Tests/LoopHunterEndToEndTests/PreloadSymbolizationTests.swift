import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Symbolization on real runs: a stripped library gets no invented names, a module rebuilt after
/// the report falls back to the names the process proved (and says so), and names are demangled.
@Suite("symbolization of real reports")
struct SymbolizationTests {
    /// Runs toykit-demo `loop` with libtoykit.so taken from `libraryDirectory` (LD_LIBRARY_PATH is
    /// searched before the program's RUNPATH) and returns the report directory.
    static func runLoop(libraryDirectory: String, label: String) throws -> ReportDirectory {
        let dir = ReportDirectory(label)
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir.path, extra: ["LD_LIBRARY_PATH": libraryDirectory])
        try #require(run.status == 0, "\(run.stderr)")
        let report = try #require(try dir.reports().first)
        try #require(report.frames.contains { $0.module == libraryDirectory + "/libtoykit.so" }, "the copy was used")
        return dir
    }

    static func scratchCopyOfToykit(_ label: String, strip: Bool) throws -> ReportDirectory {
        let lib = ReportDirectory(label)
        try FileManager.default.createDirectory(atPath: lib.path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Native.toykitLibrary, toPath: lib.path + "/libtoykit.so")
        if strip {
            let run = HostRun.run(["/usr/bin/strip", "--strip-all", lib.path + "/libtoykit.so"])
            try #require(run.status == 0, "\(run.stderr)")
        }
        return lib
    }

    static func analysis(_ dir: ReportDirectory) throws -> Analysis {
        Analyzer().analyze(try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read())
    }

    @Test("a stripped library: exported functions keep their names, the others get none, never a wrong one")
    func stripped() throws {
        try Native.ensureBuilt()
        let lib = try Self.scratchCopyOfToykit("stripped-lib", strip: true)
        defer { lib.remove() }
        let dir = try Self.runLoop(libraryDirectory: lib.path, label: "stripped")
        defer { dir.remove() }
        let stack = try #require(try Self.analysis(dir).findings.first?.stack)
        let toykitFrames = stack.filter { $0.moduleName == "libtoykit.so" }
        #expect(toykitFrames.count >= 4)
        // The truth: the same offsets symbolized in the unstripped library.
        let truth = LLVMSymbolizer().symbolize(Set(toykitFrames.compactMap { frame in
            frame.offset.flatMap { UInt64($0.dropFirst(2), radix: 16) }.map {
                CodeAddress(module: Native.toykitLibrary, buildID: nil, offset: $0)
            }
        }))
        var unnamed = 0
        for frame in toykitFrames {
            let offset = try #require(frame.offset.flatMap { UInt64($0.dropFirst(2), radix: 16) })
            let real = truth[CodeAddress(module: Native.toykitLibrary, buildID: nil, offset: offset)]?.symbols.last?.function
            if let name = frame.symbols.last?.function {
                #expect(name == real, "frame \(frame.index) named \(name), but it is \(real ?? "?")")
            } else {
                unnamed += 1
                #expect(frame.displayName.hasPrefix("libtoykit.so+0x"))
            }
        }
        #expect(unnamed >= 1, "static functions of a stripped library have no name to give")
        #expect(stack.contains { $0.symbols.last?.function == "tk_view_layout_children" }, "exported names stay")
    }

    @Test("a module rebuilt after the report: in-process names, and the output says why")
    func rebuilt() throws {
        try Native.ensureBuilt()
        let lib = try Self.scratchCopyOfToykit("rebuilt-lib", strip: false)
        defer { lib.remove() }
        let dir = try Self.runLoop(libraryDirectory: lib.path, label: "rebuilt")
        defer { dir.remove() }
        // Rebuild the library in place: different code, different build-id.
        let build = HostRun.run(["/usr/bin/cc", "-O0", "-g", "-fPIC", "-shared", "-D_GNU_SOURCE",
                                 "-I", Native.root.appendingPathComponent("Sources/Toykit/include").path]
                                + ["toykit_view.c", "toykit_loop.c"].map { Native.root.appendingPathComponent("Sources/Toykit/\($0)").path }
                                + ["-Wl,--build-id", "-lpthread", "-o", lib.path + "/libtoykit.so"])
        try #require(build.status == 0, "\(build.stderr)")
        let analysis = try Self.analysis(dir)
        let stack = try #require(analysis.findings.first?.stack)
        let frame = try #require(stack.first { $0.moduleName == "libtoykit.so" && $0.source == .inProcess })
        #expect(frame.symbols.last?.function == "tk_view_layout_children")
        #expect(frame.note?.contains("was rebuilt since the report") == true)
        #expect(analysis.symbolizationNotes.contains { $0.contains("\(lib.path)/libtoykit.so was rebuilt") })
        #expect(stack.contains { $0.moduleName == "toykit-demo" && $0.source == .debugInfo }, "unchanged modules still get debug info")
        let text = TextFormatter().format(analysis)
        #expect(text.contains("fallback to in-process names: \(lib.path)/libtoykit.so was rebuilt since the report"))

        // Gone entirely: said too.
        try FileManager.default.removeItem(atPath: lib.path + "/libtoykit.so")
        #expect(try Self.analysis(dir).symbolizationNotes.contains { $0.contains("is not on this machine") })
    }

    @Test("without a symbolizer: the names the process proved, and the output says so")
    func noSymbolizer() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("nosym")
        defer { dir.remove() }
        _ = HostRun.underPreload([Native.demo, "loop"], dir: dir.path)
        let run = HostRun.run([Native.cli, "report", dir.path, "--color", "never"],
                              environment: ["LOOPHUNTER_SYMBOLIZER": "/nonexistent/llvm-symbolizer"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Symbolized with no llvm-symbolizer found"))
        #expect(run.stdout.contains("tk_view_layout_children") && run.stdout.contains("(in-process name)"))
        #expect(!run.stdout.contains("scenario_loop.c"), "no debug information without a symbolizer")
    }

    @Test("Swift and C++ names are demangled in batch")
    func demangling() throws {
        let demangler = Demangler()
        try #require(demangler.swiftTool != nil && demangler.cxxTool != nil, "swift-demangle (Swift toolchain) and c++filt (binutils)")
        let names = demangler.demangle(["_ZN5Clock4Face6layoutEv", "$s4main3fooyyF", "plain_c_name"])
        #expect(names["_ZN5Clock4Face6layoutEv"] == "Clock::Face::layout()")
        #expect(names["$s4main3fooyyF"] == "main.foo() -> ()")
        #expect(names["plain_c_name"] == nil)
    }

    @Test("one symbolizer process per run, whatever the number of reports")
    func oneProcess() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("oneproc")
        defer { dir.remove() }
        _ = HostRun.underPreload([Native.probe, "many-types", "20"], dir: dir.path, extra: ["LOOPHUNTER_MAX_REPORTS": "100"])
        let symbolizer = LLVMSymbolizer()
        let analysis = Analyzer(symbolizer: symbolizer).analyze(try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read())
        #expect(analysis.reportCount == 20 && analysis.findings.count == 20)
        #expect(symbolizer.processesStarted == 1)
        _ = Analyzer(symbolizer: symbolizer).analyze(try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read())
        #expect(symbolizer.processesStarted == 1, "the second pass is answered from the cache")
    }
}

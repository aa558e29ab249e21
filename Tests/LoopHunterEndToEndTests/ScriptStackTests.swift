import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// The interpreted stack of a layout request (CShim/preload/runtime/lh_script.c): the preload's
/// reading of CPython's structures checked against CPython's own headers, and real Python and GJS
/// loops whose report names the script function and the very line that re-requested layout, as
/// its `where` in the analysis.
@Suite("script stacks: the Python or JavaScript function that re-requested layout")
struct ScriptStackTests {
    static let script = Native.root.appendingPathComponent("Tests/Programs/script").path
    static let causes = Native.root.appendingPathComponent("Tests/Programs/causes").path

    @Test("the preload's CPython layout matches the installed CPython's own headers")
    func cpythonLayout() throws {
        let includes = HostRun.run(["/usr/bin/python3-config", "--includes"])
        try #require(includes.status == 0, "python3-config: install python3-dev (scripts/setup.sh does): \(includes.stderr)")
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("lh-cpython-layout-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: binary) }
        let flags = includes.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        let build = HostRun.run(["/usr/bin/cc", "-Wall", "-Werror"] + flags
                                + ["-I", Native.root.appendingPathComponent("CShim/preload/runtime").path,
                                   Self.script + "/cpython_layout_check.c", "-o", binary])
        try #require(build.status == 0, "\(build.stderr)")
        let check = HostRun.run([binary])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// One loop program and the function and line (marked in its source) that must be named.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let gtk: Int
        let source: String
        let function: String
        /// Text on the line of the request (the first line of the source containing it).
        let lineMark: String
        let language: String
        /// The next frames of the script stack (callers), innermost first.
        let callers: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [3, 4].flatMap { v in
        [Case(name: "py-gtk\(v)-nested", arguments: ["/usr/bin/python3", script + "/py_nested_request.py"], gtk: v,
              source: script + "/py_nested_request.py", function: "StatusView._updates",
              lineMark: "LINE-OF-REQUEST (GTK \(v))", language: "python",
              callers: ["StatusView.refresh", "refresh_idle"]),
         Case(name: "gjs-gtk\(v)-ping-pong", arguments: ["/usr/bin/gjs", causes + "/gjs_ping_pong.js"], gtk: v,
              source: causes + "/gjs_ping_pong.js", function: "pingIdle|pongIdle",
              lineMark: ".set_text(", language: "javascript", callers: ["run"])]
    }

    @Test("the report's script stack and the analysis's `where` name the function and line", arguments: cases)
    func names(_ c: Case) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("script-\(c.name)")
        defer { dir.remove() }
        let run = GTKRun.run(["/usr/bin/env", "CAUSE_GTK=\(c.gtk)"] + c.arguments, dir: dir.path, extra: ["CAUSE_SECONDS": "3"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try dir.reports().first { $0.kind == .layoutLoop }, "\(dir.fileNames)")
        let script = try #require(report.cause?.requestScript, "a script stack in \(dir.fileNames)")
        #expect(script.language == c.language)
        let functions = c.function.split(separator: "|").map(String.init)
        let first = try #require(script.frames.first)
        #expect(functions.contains(first.function), "\(script.frames.map(\.function))")
        #expect(URL(fileURLWithPath: first.file).lastPathComponent == URL(fileURLWithPath: c.source).lastPathComponent)
        // The very line: the request is on one of the lines carrying the mark, inside the function.
        let lines = try String(contentsOfFile: c.source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let marked = lines.indices.filter { lines[$0].contains(c.lineMark) }.map { $0 + 1 }
        #expect(first.line.map { marked.contains($0) } == true, "line \(first.line ?? 0), marked \(marked)")
        #expect(Array(script.frames.dropFirst().prefix(c.callers.count).map(\.function)) == c.callers,
                "\(script.frames.map(\.function))")

        let analysis = Analyzer().analyze(try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read())
        let finding = try #require(analysis.findings.first { $0.kind == .layoutLoop })
        let requester = try #require(finding.cause?.requester)
        #expect(requester.source == .script && requester.origin == .app && requester.primary?.function == first.function)
        #expect(finding.appFrame == requester, "`where` is the script function")
        let text = TextFormatter().format(analysis)
        #expect(text.contains("where    \(URL(fileURLWithPath: c.source).lastPathComponent):\(first.line ?? 0) in \(first.function) (\(c.language))"),
                "\(text)")
        // Library frames of the bindings are not the app's (PyGObject's gi overrides).
        for frame in finding.cause?.requestScript ?? [] where frame.primary?.file?.contains("/gi/") == true {
            #expect(frame.origin == .toolkit, "\(frame.primary?.file ?? "")")
        }
    }
}

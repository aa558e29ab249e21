import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// The cause of a layout finding in every format, from the cause fixtures (a deferred ping-pong and
/// an in-layout loop): `where` is the application function that re-requested layout, the cause row
/// names its kind, entry point and widget, a deferred cause lists the callback that carried the
/// request and where layout added it, with that stack; older reports (without a cause) read as before.
@Suite("Layout causes: formats")
struct CauseFormatTests {
    static let pingPongWhere = "gtk_causes.c:107 in ping_pong_idle (gtk3-causes)"

    @Test("the analysis: the requester is the finding's `where`, the chain is symbolized")
    func analysis() throws {
        let a = try CauseFixtures.analysis()
        #expect(a.findings.map(\.kind) == [.layoutLoop, .layoutLoop])
        let deferred = try #require(a.findings.first { $0.cause?.kind == "deferred" })
        let cause = try #require(deferred.cause)
        #expect(cause.entry == "gtk_widget_queue_resize" && cause.widget.name == "right")
        #expect(cause.requester?.primary?.function == "ping_pong_idle" && deferred.appFrame == cause.requester)
        #expect(deferred.appFrame?.primary?.line == 107 && deferred.appFrame?.moduleName == "gtk3-causes")
        let link = try #require(cause.addedBy.first)
        #expect(cause.addedBy.count == 1 && !cause.chainTruncated)
        #expect(link.kind == "in-layout" && link.addedWith == "g_idle_add")
        #expect(link.callback?.primary?.function == "ping_pong_idle" && link.adder?.primary?.function == "label_allocated")
        #expect(cause.requestStack == deferred.stack, "a layout-loop's stack is its request's")

        let inLayout = try #require(a.findings.first { $0.cause?.kind == "in-layout" })
        #expect(inLayout.appFrame?.primary?.function == "relabel_in_layout" && inLayout.appFrame?.primary?.line == 87)
        #expect(inLayout.cause?.addedBy.isEmpty == true)
        // Reports older than 1.6 have no cause, and their findings none.
        #expect(try Fixtures.analysis().findings.allSatisfy { $0.cause == nil })
    }

    /// The deferred fixture report, as a JSON object to edit.
    static func deferredReport() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf:
            CauseFixtures.directory.appendingPathComponent(CauseFixtures.deferredFile))) as? [String: Any])
    }

    @Test("the requester is the innermost app frame of the request, even without a source location")
    func requesterWithoutDebugInfo() throws {
        // The ping-pong's request, its idle's frame moved to an address the fixture symbol table
        // does not know (in-process name only), and a deeper app frame that has a source location.
        var object = try Self.deferredReport()
        var cause = try #require(object["cause"] as? [String: Any])
        var stack = try #require(cause["request_stack"] as? [[String: Any]])
        let idle = try #require(stack.firstIndex { $0["symbol"] as? String == "ping_pong_idle" })
        stack[idle]["offset"] = "0x3170"
        var deeper = stack[idle]
        deeper["offset"] = "0x31bc"
        deeper["symbol"] = "label_allocated"
        stack.insert(deeper, at: idle + 1)
        cause["request_stack"] = stack
        object["cause"] = cause
        object["frames"] = stack
        let a = try Fixtures.analysis(of: [try JSONSerialization.data(withJSONObject: object)])
        let finding = try #require(a.findings.first)
        #expect(finding.cause?.requester?.displayName == "ping_pong_idle" && finding.cause?.requester?.primary?.file == nil)
        #expect(finding.appFrame == finding.cause?.requester, "`where` is the requester, not the deeper frame with a file")
    }

    /// The deferred fixture as a Python program's report would be: no frame of the app's native code
    /// on the request's stack (the interpreter's only), and the script stack the preload took.
    static func pythonReport() throws -> Data {
        var object = try Self.deferredReport()
        var cause = try #require(object["cause"] as? [String: Any])
        let stack = try #require(cause["request_stack"] as? [[String: Any]])
            .filter { !(($0["module"] as? String)?.hasSuffix("gtk3-causes") ?? false) }
        cause["request_stack"] = stack
        cause["request_script"] = ["language": "python", "frames": [
            ["function": "ping_idle", "file": "/src/app/ping.py", "line": 36],
            ["function": "MainContext.iteration", "file": "/usr/lib/python3/dist-packages/gi/overrides/GLib.py", "line": 507],
            ["function": "<module>", "file": "/src/app/ping.py", "line": NSNull()],
        ]]
        object["cause"] = cause
        object["frames"] = stack
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test("a script's request: its function is the requester and `where`, its stack listed in every format")
    func scriptRequester() throws {
        let a = try Fixtures.analysis(of: [try Self.pythonReport()])
        let finding = try #require(a.findings.first)
        let cause = try #require(finding.cause)
        #expect(cause.scriptLanguage == "Python" && cause.requestScript.count == 3)
        #expect(cause.requestScript.map(\.origin) == [.app, .toolkit, .app], "PyGObject's overrides are the toolkit's")
        let requester = try #require(cause.requester)
        #expect(requester.source == .script && requester.primary?.function == "ping_idle" && requester.primary?.line == 36)
        #expect(finding.appFrame == requester)
        #expect(cause.requestScript.last?.primary?.line == nil, "a frame without a line reads as such")

        let text = TextFormatter().format(a)
        #expect(text.contains("where    ping.py:36 in ping_idle (python)"), "\(text)")
        #expect(text.contains("script   (the Python functions running when layout was re-requested; ▶ your code)"), "\(text)")
        for (name, output) in [("markdown", MarkdownFormatter().format(a)), ("html", HTMLFormatter().format(a)),
                               ("sarif", SARIFFormatter().format(a)), ("junit", JUnitFormatter().format(a)),
                               ("json", JSONFormatter().format(a))] {
            #expect(output.contains("ping_idle") && output.contains("MainContext.iteration"), "\(name) lists the script stack")
        }
        #expect(JSONFormatter().format(a).contains("\"requestScript\""))
        // A suppression by app function matches the script's functions.
        let rules = SuppressionList(rules: try SuppressionList.parse("function:ping_idle\n", file: "lh.supp"))
        #expect(rules.rules.first?.matches(finding) == true)
        let library = SuppressionList(rules: try SuppressionList.parse("function:MainContext.iteration\n", file: "lh.supp"))
        #expect(library.rules.first?.matches(finding) == false, "the bindings' frames are not the app's")
    }

    @Test("a chain that began in a Qt Quick item's geometry change says so, in the cause and the link")
    func geometryChangeLink() throws {
        var object = try Self.deferredReport()
        var cause = try #require(object["cause"] as? [String: Any])
        var links = try #require(cause["added_by"] as? [[String: Any]])
        #expect(links.count == 1)
        links[0]["kind"] = "geometry-change"
        cause["added_by"] = links
        object["cause"] = cause
        let a = try Fixtures.analysis(of: [try JSONSerialization.data(withJSONObject: object)])
        let finding = try #require(a.findings.first)
        #expect(finding.cause?.addedBy.first?.kind == "geometry-change")
        let text = TextFormatter(colors: false).format(a)
        #expect(text.contains("made by a callback that an item's geometry change added"), "\(text)")
        #expect(text.contains("added with g_idle_add while an item's geometry changed (its onWidthChanged or similar handler ran)"), "\(text)")

        // A loop's chain grows a record a round: its older links are gone, the nearest is
        // `deferred`, and `began_in` (schema 1.10) still says where it began.
        links[0]["kind"] = "deferred"
        cause["added_by"] = links
        cause["chain_truncated"] = true
        cause["began_in"] = "geometry-change"
        object["cause"] = cause
        let truncated = try Fixtures.analysis(of: [try JSONSerialization.data(withJSONObject: object)])
        #expect(truncated.findings.first?.cause?.beganIn == "geometry-change")
        let truncatedText = TextFormatter(colors: false).format(truncated)
        #expect(truncatedText.contains("made by a callback that an item's geometry change added"), "\(truncatedText)")
        #expect(truncatedText.contains("added with g_idle_add by a callback an item's geometry change had started"), "\(truncatedText)")
        #expect(truncatedText.contains("older callbacks of the chain were no longer known"))
        // Layout's own chains read as before.
        cause["began_in"] = "layout"
        object["cause"] = cause
        let layoutText = TextFormatter(colors: false).format(try Fixtures.analysis(of: [try JSONSerialization.data(withJSONObject: object)]))
        #expect(layoutText.contains("made by a callback that layout added") && layoutText.contains("by a callback layout had added"))
    }

    @Test("text format")
    func text() throws {
        let text = TextFormatter(colors: false).format(try CauseFixtures.analysis())
        try Golden.check(text, "causes.txt")
        #expect(text.contains("   where    \(Self.pingPongWhere)"))
        #expect(text.contains("   cause    deferred: gtk_widget_queue_resize on LhLabel 'right', made by a callback that layout added"))
        #expect(text.contains("   via      ping_pong_idle (gtk3-causes), added with g_idle_add while layout ran, at gtk_causes.c:116 in label_allocated (gtk3-causes)"))
        #expect(text.contains("   added    (where ping_pong_idle was added with g_idle_add; ▶ your code)"))
        #expect(text.contains("   cause    in-layout: gtk_widget_queue_resize on LhLabel 'status', made while layout ran"))
        #expect(!text.contains("   by  "), "the requester is `where`: not repeated")
    }

    @Test("markdown and html formats")
    func markup() throws {
        let a = try CauseFixtures.analysis()
        let markdown = MarkdownFormatter().format(a)
        try Golden.check(markdown, "causes.md")
        #expect(markdown.contains("- **cause:** deferred: gtk\\_widget\\_queue\\_resize") || markdown.contains("- **cause:** deferred: gtk_widget_queue_resize"))
        #expect(markdown.contains("- **via:**") && markdown.contains("Cause: where ping"))
        let html = HTMLFormatter().format(a)
        try Golden.check(html, "causes.html")
        _ = try XMLCheck.expectWellFormed(html)
        #expect(html.contains("<dt>cause</dt><dd>deferred: gtk_widget_queue_resize on LhLabel &#39;right&#39;")
                || html.contains("<dt>cause</dt><dd>deferred: gtk_widget_queue_resize on LhLabel &apos;right&apos;")
                || html.contains("<dt>cause</dt><dd>deferred: gtk_widget_queue_resize on LhLabel 'right'"))
        #expect(html.contains("<summary>Cause: where ping_pong_idle was added with g_idle_add:"))
    }

    @Test("json format: the cause under `cause`, symbolized")
    func json() throws {
        let text = OutputFormat.json.formatter().format(try CauseFixtures.analysis())
        try Golden.check(text, "causes.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let findings = try #require((object["analysis"] as? [String: Any] ?? object)["findings"] as? [[String: Any]])
        let causes = findings.compactMap { $0["cause"] as? [String: Any] }
        #expect(Set(causes.compactMap { $0["kind"] as? String }) == ["deferred", "in-layout"])
        let deferred = try #require(causes.first { $0["kind"] as? String == "deferred" })
        let link = try #require((deferred["addedBy"] as? [[String: Any]])?.first)
        #expect(link["addedWith"] as? String == "g_idle_add" && link["stack"] is [Any])
        // And back: the analysis document reads into the same findings.
        let decoded = try JSONDecoder().decode([Finding].self, from: JSONSerialization.data(withJSONObject: findings))
        #expect(decoded == (try CauseFixtures.analysis()).findings)
    }

    @Test("sarif format: the cause in the message, the properties and a stack of its own; checked by the validators")
    func sarif() throws {
        let text = SARIFFormatter().format(try CauseFixtures.analysis())
        try Golden.check(text, "causes.sarif")
        try FormatValidators.validate(sarif: text, label: "causes")
        let run = try #require(FormatValidators.sarifRuns(text).first)
        let results = try #require(run["results"] as? [[String: Any]])
        let deferred = try #require(results.first {
            (($0["properties"] as? [String: Any])?["cause"] as? [String: Any])?["kind"] as? String == "deferred"
        })
        let cause = try #require((deferred["properties"] as? [String: Any])?["cause"] as? [String: Any])
        #expect(cause["requester"] as? String == Self.pingPongWhere)
        #expect((cause["addedBy"] as? [String])?.first?.hasPrefix("ping_pong_idle (gtk3-causes), added with g_idle_add") == true)
        #expect((deferred["stacks"] as? [Any])?.count == 2, "the request's stack, and where the idle was added")
        let message = (deferred["message"] as? [String: Any])?["text"] as? String ?? ""
        #expect(message.contains("Cause: deferred: gtk_widget_queue_resize"))
        let location = (deferred["locations"] as? [[String: Any]])?.first
        let physical = location?["physicalLocation"] as? [String: Any]
        #expect((physical?["region"] as? [String: Any])?["startLine"] as? Int == 107, "the result points at the requester")
    }

    @Test("junit format, checked by junitparser")
    func junit() throws {
        let text = JUnitFormatter().format(try CauseFixtures.analysis())
        try Golden.check(text, "causes.junit.xml")
        _ = try XMLCheck.expectWellFormed(text)
        try FormatValidators.validate(junit: text, failures: 2, label: "causes")
        #expect(text.contains("cause    deferred: gtk_widget_queue_resize") && text.contains("added    (where ping_pong_idle was added"))
    }
}

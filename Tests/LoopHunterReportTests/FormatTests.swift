import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The Markdown, HTML, SARIF and JUnit formats: golden files from the fixture reports, an analysis
/// with no finding, names that try to break out of every format, SARIF's source root, and the
/// SARIF and JUnit outputs checked by real consumers (Tests/Validators, in a Python venv that
/// scripts/setup-validators.sh makes once per test process).
@Suite("Markdown, HTML, SARIF and JUnit formats")
struct FormatTests {
    // MARK: Golden files

    @Test("markdown format")
    func markdown() throws {
        try Golden.check(OutputFormat.markdown.formatter().format(Fixtures.analysis()), "fixtures.md")
    }

    @Test("html format")
    func html() throws {
        let text = try OutputFormat.html.formatter().format(Fixtures.analysis())
        try Golden.check(text, "fixtures.html")
        try XMLCheck.expectWellFormed(text)
        #expect(!text.contains("<script") && !text.contains("src=\"http") && !text.contains("href=\"http"),
                "self-contained: no script, no external resource")
        #expect(text.components(separatedBy: "<svg ").count - 1 == 7, "one timeline per finding")
    }

    @Test("sarif format, checked by sarif-pydantic and sarif-tools")
    func sarif() throws {
        let text = try OutputFormat.sarif.formatter().format(Fixtures.analysis())
        try Golden.check(text, "fixtures.sarif")
        try FormatValidators.validate(sarif: text, label: "fixtures")
        let run = try #require(FormatValidators.sarifRuns(text).first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 7)
        let rules = (run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]]
        #expect(rules?.compactMap { $0["id"] as? String } == ["layout-storm", "layout-streak", "alloc-storm", "heap-growth"],
                "one rule per kind present")
    }

    @Test("junit format, checked by junitparser")
    func junit() throws {
        let text = try OutputFormat.junit.formatter().format(Fixtures.analysis())
        try Golden.check(text, "fixtures.junit.xml")
        let elements = try XMLCheck.expectWellFormed(text)
        #expect(elements.filter { $0.name == "testcase" }.compactMap { $0.attributes["name"] }.first
                == "StatusLabel 'status' at scenario_loop.c:42 in loop_toolbar_layout (toykit-demo)")
        try FormatValidators.validate(junit: text, failures: 7, label: "fixtures")
    }

    // MARK: No findings

    @Test("an analysis with no finding, in every format")
    func empty() throws {
        for (label, analysis) in [("empty", try Self.emptyAnalysis()), ("clean", try Self.cleanAnalysis())] {
            let markdown = MarkdownFormatter().format(analysis)
            #expect(markdown.hasPrefix("## LoopHunter: no loops found\n"), "\(label)")
            #expect(!markdown.contains("| # |"), "\(label): no table without findings")

            let html = HTMLFormatter().format(analysis)
            #expect(html.contains("<h1>LoopHunter: no loops found</h1>") && !html.contains("<svg"), "\(label)")
            try XMLCheck.expectWellFormed(html)

            let sarif = SARIFFormatter().format(analysis)
            let run = try #require(FormatValidators.sarifRuns(sarif).first)
            #expect((run["results"] as? [Any])?.isEmpty == true, "\(label): an empty results array means no findings")
            try FormatValidators.validate(sarif: sarif, label: label)

            let junit = JUnitFormatter().format(analysis)
            let elements = try XMLCheck.expectWellFormed(junit)
            let cases = elements.filter { $0.name == "testcase" }
            #expect(cases.count == 1 && cases.first?.attributes["name"] == "no layout loops", "\(label): one passing case")
            #expect(!elements.contains { $0.name == "failure" })
            try FormatValidators.validate(junit: junit, failures: 0, label: label)

            if label == "clean" {
                #expect(markdown.contains("### 1 file skipped") && markdown.contains("### Processes"))
                #expect(html.contains("1 file skipped"))
                let notifications = ((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]]) ?? []
                #expect(notifications.count == 1 && notifications.first?["level"] as? String == "warning")
                #expect(junit.contains("<system-err>skipped: "))
            } else {
                #expect(markdown == "## LoopHunter: no loops found\n\nIn `reports`: 0 reports, 0 processes.\n")
            }
        }
    }

    // MARK: Hostile names

    /// Everything a name can hold that could break out of a format: markup, quotes, table and
    /// code delimiters, line breaks, controls, CDATA and comment ends, entities.
    static let hostile = "<script>alert(\"x&y\")</script> | `tick` ``` 'q' $x$ *b* _i_ [l](u) \\ \n# h\r\u{1}\u{7F}\t]]> --> &amp; \u{2028}"

    @Test("report text is escaped in every format")
    func hostileNames() throws {
        let analysis = try Self.hostileAnalysis()
        let finding = try #require(analysis.findings.first)
        #expect(finding.object.label.contains("<script>") && finding.stack[1].displayName.contains("\n"), "the analysis is hostile")

        // HTML: no tag from a report, every character a document allows, well-formed.
        let html = HTMLFormatter().format(analysis)
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;"))
        #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) })
        try XMLCheck.expectWellFormed(html)

        // JUnit: well-formed, and the names read back as written (controls made visible).
        let junit = JUnitFormatter().format(analysis)
        let elements = try XMLCheck.expectWellFormed(junit)
        let names = elements.filter { $0.name == "testcase" }.compactMap { $0.attributes["name"] }
        #expect(names.count == analysis.findings.count)
        #expect(names.allSatisfy { $0.contains("<script>alert(\"x&y\")</script> | `tick`") && $0.contains("␤# h") })
        #expect(elements.first { $0.name == "failure" }?.attributes["message"]?.contains("'q'") == true)
        try FormatValidators.validate(junit: junit, failures: analysis.findings.count, label: "hostile")

        // SARIF: JSON keeps every character as it was.
        let sarif = SARIFFormatter(sourceRoot: "/src").format(analysis)
        let results = try #require(FormatValidators.sarifRuns(sarif).first?["results"] as? [[String: Any]])
        let message = (results.first?["message"] as? [String: Any])?["text"] as? String
        #expect(message?.contains(Self.hostile) == true)
        try FormatValidators.validate(sarif: sarif, label: "hostile")

        // Markdown: the table keeps one row per finding and its columns; no raw HTML outside code.
        let markdown = MarkdownFormatter().format(analysis)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rows = lines.filter { $0.hasPrefix("| ") }
        #expect(rows.count == analysis.findings.count + 2)
        for row in rows { #expect(Self.unescapedPipes(row) == 7, "a row split or merged: \(row)") }
        #expect(!lines.contains { $0.hasPrefix("# h") }, "a name started a line")
        #expect(Self.unescapedAngleBrackets(outsideCodeIn: lines) == 0)
        let fences = lines.filter { $0.hasPrefix("```") }
        #expect(fences.count == 2 * analysis.findings.count && fences.allSatisfy { $0.hasPrefix("````") },
                "stack fences longer than the names' backtick runs")
    }

    // MARK: SARIF source root

    @Test("sarif: files under the source root are relative to SRCROOT, others absolute file URIs")
    func sourceRoot() throws {
        for root in ["/src/demo", "/src/demo/", "/src/./demo"] {
            let run = try #require(FormatValidators.sarifRuns(SARIFFormatter(sourceRoot: root).format(Fixtures.analysis())).first)
            let base = (run["originalUriBaseIds"] as? [String: [String: String]])?["SRCROOT"]
            #expect(base == ["uri": "file:///src/demo/"], "root \(root)")
            let locations = try Self.primaryArtifacts(run)
            #expect(locations.first == ["uri": "scenario_loop.c", "uriBaseId": "SRCROOT"], "root \(root)")
            #expect(locations.contains(["uri": "file:///src/clock/clock.c"]), "root \(root): not under the root")
        }
        let sibling = try #require(FormatValidators.sarifRuns(SARIFFormatter(sourceRoot: "/src/dem").format(Fixtures.analysis())).first)
        #expect(try Self.primaryArtifacts(sibling).first == ["uri": "file:///src/demo/scenario_loop.c"], "a prefix is not a parent")
        let none = try #require(FormatValidators.sarifRuns(SARIFFormatter().format(Fixtures.analysis())).first)
        #expect(none["originalUriBaseIds"] == nil)
        #expect(try Self.primaryArtifacts(none).first == ["uri": "file:///src/demo/scenario_loop.c"])
        let region = ((((none["results"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"]
                       as? [String: Any])?["region"]) as? [String: Int]
        #expect(region == ["startLine": 42, "startColumn": 5])

        // Percent-encoding, with and without the root.
        let odd = try Self.analysis(replacingFile: "/src/demo/scenario_loop.c", with: "/src/my demo/50% #1/é?.c")
        let encoded = try #require(FormatValidators.sarifRuns(SARIFFormatter().format(odd)).first)
        let uri = try #require(Self.primaryArtifacts(encoded).first?["uri"])
        #expect(uri == "file:///src/my%20demo/50%25%20%231/%C3%A9%3F.c")
        #expect(URL(string: uri)?.path == "/src/my demo/50% #1/é?.c")
        let rooted = SARIFFormatter(sourceRoot: "/src/my demo").format(odd)
        let relative = try #require(FormatValidators.sarifRuns(rooted).first)
        #expect(try Self.primaryArtifacts(relative).first == ["uri": "50%25%20%231/%C3%A9%3F.c", "uriBaseId": "SRCROOT"])
        #expect((relative["originalUriBaseIds"] as? [String: [String: String]])?["SRCROOT"] == ["uri": "file:///src/my%20demo/"])
        try FormatValidators.validate(sarif: rooted, label: "source-root")
    }

    @Test("a finding without an app source file gets a logical location")
    func logicalLocation() throws {
        let noFiles = try Self.analysis(replacingFile: nil, with: nil)
        let bare = try #require(FormatValidators.sarifRuns(SARIFFormatter().format(noFiles)).first)
        let first = try #require(((bare["results"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])?.first)
        #expect(first["physicalLocation"] == nil)
        let logical = (first["logicalLocations"] as? [[String: String]])?.first
        #expect(logical?["name"] == "loop_toolbar_layout" && logical?["kind"] == "function")
        try FormatValidators.validate(sarif: SARIFFormatter().format(noFiles), label: "no-files")
    }

    @Test("every format is deterministic")
    func deterministic() throws {
        let a = try Fixtures.analysis(), b = try Fixtures.analysis()
        for format in [OutputFormat.markdown, .html, .sarif, .junit] {
            #expect(format.formatter().format(a) == format.formatter().format(b), "\(format)")
        }
    }
}

// MARK: - Analyses

extension FormatTests {
    static func emptyAnalysis() throws -> Analysis {
        try JSONDecoder().decode(Analysis.self, from: Data("""
            {"directory": "reports", "findings": [], "processes": [], "problems": [], "reportCount": 0,
             "symbolizer": "llvm-symbolizer (fixture table)", "symbolizationNotes": []}
            """.utf8))
    }

    /// No finding, the fixtures' processes, and a file that could not be read.
    static func cleanAnalysis() throws -> Analysis {
        try edited(Fixtures.analysis()) { object in
            object["findings"] = [Any]()
            object["problems"] = ["reports/report-1-x.json: not valid JSON (unexpected end of file), skipped"]
            object["reportCount"] = 0
        }
    }

    /// The fixtures with the hostile text appended to every name, path, function and message.
    static func hostileAnalysis() throws -> Analysis {
        let keys: Set<String> = ["type", "name", "path", "function", "file", "title", "executable", "kind", "module",
                                 "moduleName", "note", "directory", "symbolizer", "countUnit", "hook", "threads",
                                 "problems", "symbolizationNotes", "reportPaths", "configMessages"]
        func poison(_ value: Any, key: String?) -> Any {
            if let object = value as? [String: Any] {
                return Dictionary(uniqueKeysWithValues: object.map { ($0.key, poison($0.value, key: $0.key)) })
            }
            if let array = value as? [Any] { return array.map { poison($0, key: key) } }
            if let text = value as? String, let key, keys.contains(key) { return text + hostile }
            return value
        }
        return try edited(Fixtures.analysis()) { object in
            object = poison(object, key: nil) as? [String: Any] ?? object
            object["problems"] = ["reports/x.json\(hostile): not valid JSON, skipped"]
        }
    }

    /// The fixtures with a source file path replaced in every frame (nil: every file, or the file, removed).
    static func analysis(replacingFile file: String?, with replacement: String?) throws -> Analysis {
        func edit(_ value: Any) -> Any {
            if var object = value as? [String: Any] {
                if let path = object["file"] as? String, file == nil || path == file {
                    object["file"] = replacement ?? NSNull()
                    if replacement == nil { object["line"] = NSNull(); object["column"] = NSNull() }
                }
                return object.mapValues(edit)
            }
            if let array = value as? [Any] { return array.map(edit) }
            return value
        }
        return try edited(Fixtures.analysis()) { object in object = edit(object) as? [String: Any] ?? object }
    }

    /// The analysis through its JSON form, changed by `change`.
    static func edited(_ analysis: Analysis, _ change: (inout [String: Any]) -> Void) throws -> Analysis {
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(analysis)) as? [String: Any])
        change(&object)
        return try JSONDecoder().decode(Analysis.self, from: JSONSerialization.data(withJSONObject: object))
    }
}

// MARK: - Reading the outputs

extension FormatTests {
    /// Each result's first location's artifact location.
    static func primaryArtifacts(_ run: [String: Any]) throws -> [[String: String]] {
        let results = try #require(run["results"] as? [[String: Any]])
        return results.map { result in
            let location = (result["locations"] as? [[String: Any]])?.first
            let physical = location?["physicalLocation"] as? [String: Any]
            return physical?["artifactLocation"] as? [String: String] ?? [:]
        }
    }

    /// `|` not escaped by a backslash.
    static func unescapedPipes(_ row: String) -> Int {
        var count = 0, backslashes = 0
        for character in row {
            if character == "|", backslashes % 2 == 0 { count += 1 }
            backslashes = character == "\\" ? backslashes + 1 : 0
        }
        return count
    }

    /// `<` outside fenced code blocks and code spans, not escaped by a backslash.
    static func unescapedAngleBrackets(outsideCodeIn lines: [String]) -> Int {
        var count = 0
        var fence: String?
        for line in lines {
            if let open = fence {
                if line == open { fence = nil }
                continue
            }
            if line.hasPrefix("```") {
                fence = String(line.prefix { $0 == "`" })
                continue
            }
            var characters = Array(line)[...]
            var backslashes = 0
            while let character = characters.first {
                characters = characters.dropFirst()
                if character == "`", backslashes % 2 == 0 {
                    // A code span: skip to the closing run of the same length.
                    var run = 1
                    while characters.first == "`" { run += 1; characters = characters.dropFirst() }
                    let closing = String(repeating: "`", count: run)
                    let rest = String(characters)
                    if let end = rest.range(of: closing) {
                        characters = Array(rest[end.upperBound...])[...]
                    }
                    backslashes = 0
                    continue
                }
                if character == "<", backslashes % 2 == 0 { count += 1 }
                backslashes = character == "\\" ? backslashes + 1 : 0
            }
        }
        return count
    }
}

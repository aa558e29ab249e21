import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// `--suppress` rules: parsed strictly (a mistyped rule is an error naming its line, never a
/// silent no-op), matched by finding id, kind, object type or name and app function, and the
/// matched findings kept in every format, apart, with their rule.
@Suite("suppressions")
struct SuppressionTests {
    static func rules(_ text: String) throws -> SuppressionList {
        SuppressionList(rules: try SuppressionList.parse(text, file: "lh.supp"))
    }

    @Test("rules: comments, blank lines, several conditions, a reason")
    func parses() throws {
        let list = try Self.rules("""
            # the team's known issues

            kind:layout-streak type:Status*   # tracked as #12
            function:loop_toolbar_layout
            finding:0123456789ABCDEF
            """)
        #expect(list.rules.count == 3)
        #expect(list.rules[0].text == "kind:layout-streak type:Status*")
        #expect(list.rules[0].reason == "tracked as #12")
        #expect(list.rules[0].location == "lh.supp:3")
        #expect(list.rules[1].reason == nil)
        #expect(list.rules[2].conditions == [.finding("0123456789abcdef")], "ids are compared in lower case")
    }

    @Test("a line that is not a rule is an error naming the file, the line and the keys", arguments: [
        ("kind=layout-streak", "lh.supp:1: 'kind=layout-streak' is not a condition"),
        ("widget:GtkLabel", "lh.supp:1: 'widget:GtkLabel' is not a condition"),
        ("type:", "lh.supp:1: 'type:' is not a condition"),
        ("finding:xyz", "lh.supp:1: finding:xyz is not a finding id"),
    ])
    func rejects(_ line: String, _ message: String) {
        #expect {
            _ = try Self.rules(line)
        } throws: { error in
            let text = (error as? SuppressionFileError)?.description ?? ""
            return text.hasPrefix(message) && (text.contains("finding, kind, type, name, function") || line.hasPrefix("finding:"))
        }
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect {
            _ = try SuppressionList.load(["/nonexistent/lh.supp"])
        } throws: { error in
            (error as? SuppressionFileError)?.description.hasPrefix("--suppress /nonexistent/lh.supp: cannot read it") == true
        }
    }

    @Test("each condition matches what it names, and only that")
    func matching() throws {
        let analysis = try Fixtures.analysis()
        let streak = try #require(analysis.findings.first { $0.kind == .layoutStreak })
        let storm = try #require(analysis.findings.first { $0.kind == .allocStorm })
        let cases: [(String, Finding, Bool)] = [
            ("finding:\(streak.id)", streak, true), ("finding:\(streak.id)", storm, false),
            ("kind:layout-streak", streak, true), ("kind:layout-streak", storm, false),
            ("type:StatusLabel", streak, true), ("type:Status*", streak, true), ("type:Label", streak, false),
            ("name:status", streak, true), ("name:stat?s", streak, true), ("name:main", streak, false),
            ("function:loop_toolbar_layout", streak, true), ("function:loop_*", streak, true),
            // toykit's own functions are not the app's: a rule on them matches nothing
            ("function:tk_view_layout_children", streak, false),
            ("kind:layout-streak name:status", streak, true), ("kind:layout-storm name:status", streak, false),
        ]
        for (text, finding, expected) in cases {
            let rule = try #require(try Self.rules(text).rules.first)
            #expect(rule.matches(finding) == expected, "\(text) on \(finding.kind.rawValue) \(finding.title)")
        }
    }

    @Test("function: rules see a layout cause's frames: the requester, the callback that carried it, where layout added it")
    func causeFunctions() throws {
        let analysis = try CauseFixtures.analysis()
        let pingPong = try #require(analysis.findings.first { $0.cause?.kind == "deferred" })
        let inLayout = try #require(analysis.findings.first { $0.cause?.kind == "in-layout" })
        for (text, finding, expected) in [
            ("function:ping_pong_idle", pingPong, true), ("function:label_allocated", pingPong, true),
            ("function:label_allocated", inLayout, false), ("function:relabel_in_layout", inLayout, true),
            ("function:relabel_in_layout", pingPong, false),
            // GTK's frames on the cause's stacks are not the app's
            ("function:gtk_widget_size_allocate_with_baseline", pingPong, false),
        ] {
            let rule = try #require(try Self.rules(text).rules.first)
            #expect(rule.matches(finding) == expected, "\(text) on \(finding.title)")
        }
    }

    @Test("apply: matched findings move to `suppressed` with their rule, nothing is lost; unused rules are returned")
    func apply() throws {
        let analysis = try Fixtures.analysis()
        let list = try Self.rules("kind:layout-streak # known\nkind:layout-storm type:NoSuchType\n")
        let (result, unused) = list.apply(to: analysis)
        let streaks = analysis.findings.filter { $0.kind == .layoutStreak }
        #expect(streaks.count == 2)
        #expect(result.findings.count == analysis.findings.count - streaks.count)
        #expect(result.suppressed?.map(\.finding) == streaks)
        #expect(result.suppressed?.allSatisfy { $0.rule == "kind:layout-streak" && $0.location == "lh.supp:1" && $0.reason == "known" } == true)
        #expect(unused.map(\.location) == ["lh.supp:2"])
        #expect(analysis.suppressed == nil, "no rule given: no suppressed section")
    }

    @Test("every format lists the suppressed findings apart, with the rule; SARIF and JUnit as their consumers expect")
    func formats() throws {
        let analysis = try Fixtures.analysis()
        let (result, _) = try Self.rules("kind:layout-streak # known\n").apply(to: analysis)
        let streak = try #require(result.suppressed?.first)
        let text = TextFormatter().format(result)
        #expect(text.contains("2 findings suppressed:"))
        #expect(text.contains("layout-streak \(streak.finding.title) [\(streak.finding.id)]: by kind:layout-streak (lh.supp:1, known)"))
        #expect(text.hasPrefix("LoopHunter: 5 findings:"))
        let markdown = MarkdownFormatter().format(result)
        #expect(markdown.contains("### 2 findings suppressed"))
        let html = HTMLFormatter().format(result)
        #expect(html.contains("<section class=\"suppressed\">"))
        try XMLCheck.expectWellFormed(html)

        let sarif = SARIFFormatter().format(result)
        let results = try #require(FormatValidators.sarifRuns(sarif).first?["results"] as? [[String: Any]])
        let suppressedResults = results.filter { $0["suppressions"] != nil }
        #expect(results.count == analysis.findings.count, "suppressed findings stay results")
        #expect(suppressedResults.count == 2)
        let suppression = try #require((suppressedResults.first?["suppressions"] as? [[String: Any]])?.first)
        #expect(suppression["kind"] as? String == "external")
        #expect((suppression["justification"] as? String)?.contains("kind:layout-streak") == true)
        try FormatValidators.validate(sarif: sarif, label: "suppressed")

        let junit = JUnitFormatter().format(result)
        #expect(junit.contains("skipped=\"2\""))
        #expect(junit.contains("<skipped message=\"suppressed by kind:layout-streak (lh.supp:1, known)\"/>"))
        try FormatValidators.validate(junit: junit, failures: 5, label: "suppressed")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONFormatter().format(result).utf8)) as? [String: Any])
        let analysisObject = try #require(json["analysis"] as? [String: Any])
        #expect((analysisObject["suppressed"] as? [[String: Any]])?.count == 2)
        #expect((analysisObject["findings"] as? [[String: Any]])?.count == 5)
    }

    @Test("all findings suppressed: the headline says so instead of a bare \"no loops found\"")
    func allSuppressed() throws {
        let analysis = try Fixtures.analysis()
        let (result, _) = try Self.rules(analysis.findings.map { "finding:\($0.id)" }.joined(separator: "\n")).apply(to: analysis)
        #expect(result.findings.isEmpty)
        #expect(TextFormatter().format(result).hasPrefix("LoopHunter: no loops found (7 suppressed)"))
    }

    @Test("the template suppresses exactly the findings it was written from")
    func template() throws {
        let analysis = try Fixtures.analysis()
        let template = SuppressionList.template(for: analysis)
        #expect(template.split(separator: "\n").count == analysis.findings.count)
        let (result, unused) = try Self.rules(template).apply(to: analysis)
        #expect(result.findings.isEmpty && unused.isEmpty)
        #expect(result.suppressed?.count == analysis.findings.count)
    }
}

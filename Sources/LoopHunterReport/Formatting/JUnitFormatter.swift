/// JUnit XML, for CI dashboards: one suite `loophunter` with one failing test case per finding
/// (`loophunter.<kind>`, named `<object> at <app location>`, the failure's text giving the details
/// and the stack), or a single passing case `no layout loops` when there is none. When LoopHunter
/// did not see everything (``Analysis/unseen``), a failing case `loophunter.not-seen` says what, and
/// there is no passing case. Files that could not be read are `<system-err>` lines; the headline and
/// processes are `<system-out>`.
///
/// No XML package is a dependency of this project, so the document is built as strings, every
/// piece of text through the one escaper, ``MarkupText/escape(_:escapingApostrophes:)``, with
/// apostrophes left as they are (every attribute value is double-quoted).
public struct JUnitFormatter: FindingsFormatter {
    /// Frames listed per stack in a failure; the rest are counted.
    public let maxFrames: Int

    public init(maxFrames: Int = 16) {
        self.maxFrames = maxFrames
    }

    public func format(_ a: Analysis) -> String {
        let escape = { (text: String) in MarkupText.escape(text, escapingApostrophes: false) }
        let cases = testCases(a)
        let failures = cases.filter { $0.failure != nil && $0.skipped == nil }.count
        let skipped = cases.filter { $0.skipped != nil }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\""
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"LoopHunter\" \(counts)>",
            "  <testsuite name=\"loophunter\" \(counts)>",
            "    <properties>",
        ]
        for (name, value) in [("directory", a.directory), ("reports", "\(a.reportCount)"),
                              ("processes", "\(a.processes.count)"), ("symbolizer", a.symbolizer)] {
            out.append("      <property name=\"\(name)\" value=\"\(escape(value))\"/>")
        }
        out.append("    </properties>")
        for testCase in cases { out += testCase.xml(indent: "    ") }
        var stdout = ["LoopHunter: \(FindingText.headline(a)) in \(a.directory) (\(FindingText.totals(a)))"]
        for p in a.processes {
            stdout.append(FindingText.processLine(p))
            stdout += p.configMessages.map { "  " + $0 }
            if let rows = FindingText.windowRows(p), !rows.isEmpty {
                stdout.append("  " + FindingText.windowsHeading(p) + ":")
                stdout += FindingText.alignedTable([FindingText.windowColumns] + rows).map { "    " + $0 }
            }
        }
        out.append("    <system-out>" + stdout.map(escape).joined(separator: "\n") + "</system-out>")
        if !a.problems.isEmpty {
            out.append("    <system-err>" + a.problems.map { escape("skipped: " + $0) }.joined(separator: "\n") + "</system-err>")
        }
        out += ["  </testsuite>", "</testsuites>"]
        return out.joined(separator: "\n") + "\n"
    }

    /// A failed "not seen" case when LoopHunter did not see everything, one failed case per finding
    /// (a passing "no layout loops" case when there is none and everything was seen), then one
    /// skipped case per suppressed finding.
    func testCases(_ a: Analysis) -> [JUnitTestCase] {
        var unseen: [JUnitTestCase] = []
        if let sentences = a.unseen, let first = sentences.first {
            unseen = [JUnitTestCase(classname: "loophunter.not-seen", name: "LoopHunter saw the program",
                                    failure: JUnitFailure(message: first, type: "not-seen", lines: sentences))]
        }
        let suppressed = (a.suppressed ?? []).map { s in
            JUnitTestCase(classname: "loophunter.\(s.finding.kind.rawValue)",
                          name: "\(s.finding.object.label) at \(FindingText.place(s.finding)) [\(s.finding.id)]",
                          failure: nil, skipped: "suppressed " + FindingText.suppressedRule(s))
        }
        guard !a.findings.isEmpty else {
            return (unseen.isEmpty ? [JUnitTestCase(classname: "loophunter", name: "no layout loops", failure: nil)] : unseen)
                + suppressed
        }
        return unseen + findingCases(a) + suppressed
    }

    private func findingCases(_ a: Analysis) -> [JUnitTestCase] {
        let names = a.findings.map { "\($0.object.label) at \(FindingText.place($0))" }
        let keys = zip(a.findings, names).map { "loophunter.\($0.kind.rawValue)\u{0}\($1)" }
        return zip(a.findings, zip(names, keys)).map { f, nameAndKey in
            let (name, key) = nameAndKey
            // Names identify a test across runs on a dashboard: the finding id is added only
            // where two findings of one kind would otherwise share one.
            let unique = keys.filter { $0 == key }.count == 1 ? name : "\(name) [\(f.id)]"
            return JUnitTestCase(classname: "loophunter.\(f.kind.rawValue)", name: unique,
                                 failure: JUnitFailure(message: f.title, type: f.kind.rawValue, lines: details(f)))
        }
    }

    /// The text format's block for the finding, without colours.
    private func details(_ f: Finding) -> [String] {
        var lines = [f.title]
        func row(_ label: String, _ value: String) { lines.append(label.padding(toLength: 9, withPad: " ", startingAt: 0) + value) }
        if let location = FindingText.location(f.appFrame) { row("where", location) }
        row("view", FindingText.view(f))
        if f.objects.count > 1 { row("also", f.objects.dropFirst().map(\.label).joined(separator: ", ")) }
        if !f.members.isEmpty { row("loop", FindingText.members(f)) }
        for (label, value) in FindingText.causeRows(f) { row(label, value) }
        row("seen", FindingText.seen(f))
        if let history = FindingText.history(f) { row("history", history) }
        for (label, value) in FindingText.memoryRows(f) { row(label, value) }
        for (label, value) in FindingText.healthRows(f) { row(label, value) }
        row("stack", FindingText.stackHint(f))
        lines += FindingText.stackLines(f, maxFrames: maxFrames).map { "  " + $0 }
        if f.createdStack != nil {
            row("created", "(where the source was created; ▶ your code)")
            lines += FindingText.createdStackLines(f, maxFrames: maxFrames).map { "  " + $0 }
        }
        for cause in FindingText.causeStacks(f) {
            row(cause.label, "(\(cause.title); ▶ your code)")
            lines += FindingText.stackLines(cause.stack, maxFrames: maxFrames).map { "  " + $0 }
        }
        let files = FindingText.reportFiles(f)
        row("report", files.first + (files.more > 0 ? " (+\(files.more) more)" : ""))
        return lines
    }
}

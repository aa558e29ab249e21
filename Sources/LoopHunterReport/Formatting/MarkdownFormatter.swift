/// GitHub-flavoured Markdown, for a CI job summary (`$GITHUB_STEP_SUMMARY`) or an issue: the
/// headline, a table of the findings, one section per finding (what, where, the view, the rest of
/// the loop, when and where seen, the run-up, the memory side, the stack with the app's frames
/// marked), then the processes, the files skipped and how symbolization went. Report text is
/// escaped with ``MarkdownText``: it can neither break the table nor inject markup or HTML.
public struct MarkdownFormatter: FindingsFormatter {
    /// Frames listed per stack; the rest are counted.
    public let maxFrames: Int

    public init(maxFrames: Int = 16) {
        self.maxFrames = maxFrames
    }

    public func format(_ a: Analysis) -> String {
        var out = ["## LoopHunter: \(MarkdownText.text(FindingText.headline(a)))", ""]
        out.append("In \(MarkdownText.code(a.directory)): \(FindingText.totals(a)).")
        if let unseen = a.unseen {
            out += ["", "**Not seen:**", ""] + unseen.map { "- " + MarkdownText.text($0) }
        }
        if !a.findings.isEmpty {
            out += [""] + table(a.findings)
            for (number, finding) in zip(1..., a.findings) {
                out += [""] + section(finding, number: number)
            }
        }
        if let heading = FindingText.suppressedHeading(a) {
            out += ["", "### " + MarkdownText.text(heading), ""]
            out += (a.suppressed ?? []).map { "- " + MarkdownText.text(FindingText.suppressedLine($0)) }
        }
        if !a.processes.isEmpty {
            out += ["", "### Processes", ""]
            for p in a.processes {
                out.append("- " + MarkdownText.text(FindingText.processLine(p)))
                out += p.configMessages.map { "  - " + MarkdownText.text($0) }
            }
            for p in a.processes {
                guard let rows = FindingText.windowRows(p), !rows.isEmpty else { continue }
                out += ["", "#### " + MarkdownText.text(FindingText.windowsHeading(p)), ""]
                out.append(MarkdownText.row(FindingText.windowColumns))
                out.append(MarkdownText.row(["---", "---", "---", "--:", "---"]))
                out += rows.map { MarkdownText.row($0.map { MarkdownText.text($0) }) }
            }
        }
        if !a.problems.isEmpty {
            out += ["", "### \(FindingText.skipped(a))", ""]
            out += a.problems.map { "- " + MarkdownText.text($0) }
        }
        if !a.findings.isEmpty {
            out += ["", "Symbolized with \(MarkdownText.text(a.symbolizer))."]
            if !a.symbolizationNotes.isEmpty {
                out += [""] + a.symbolizationNotes.map { "- fallback to in-process names: " + MarkdownText.text($0) }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    private func table(_ findings: [Finding]) -> [String] {
        var rows = [
            MarkdownText.row(["#", "kind", "object", "count / threshold", "where", "reports"]),
            MarkdownText.row(["--:", "---", "---", "--:", "---", "---"]),
        ]
        for (number, f) in zip(1..., findings) {
            rows.append(MarkdownText.row([
                "\(number)",
                "\(FindingText.mark(f.severity)) " + MarkdownText.text(f.kind.rawValue),
                MarkdownText.text(f.object.label),
                FindingText.countAndThreshold(f),
                FindingText.location(f.appFrame).map { MarkdownText.code($0, inTable: true) } ?? "—",
                FindingText.reports(f),
            ]))
        }
        return rows
    }

    private func section(_ f: Finding, number: Int) -> [String] {
        var lines = ["### \(number). \(FindingText.mark(f.severity)) \(MarkdownText.text(f.kind.rawValue)): \(MarkdownText.text(f.title))", ""]
        func item(_ label: String, _ value: String) { lines.append("- **\(label):** \(value)") }
        if let location = FindingText.location(f.appFrame) { item("where", MarkdownText.code(location)) }
        item("view", MarkdownText.text(FindingText.view(f)))
        if f.objects.count > 1 { item("also", MarkdownText.text(f.objects.dropFirst().map(\.label).joined(separator: ", "))) }
        if !f.members.isEmpty { item("loop", MarkdownText.text(FindingText.members(f))) }
        for (label, value) in FindingText.causeRows(f) {
            item(label, label == "by" && f.cause?.requester != nil ? MarkdownText.code(value) : MarkdownText.text(value))
        }
        item("seen", MarkdownText.text(FindingText.seen(f)))
        if let history = FindingText.history(f) { item("history", MarkdownText.text(history)) }
        for (label, value) in FindingText.memoryRows(f) { item(label, MarkdownText.text(value)) }
        for (label, value) in FindingText.healthRows(f) {
            item(label, label == "stuck" ? "**" + MarkdownText.text(value) + "**" : MarkdownText.text(value))
        }
        let files = FindingText.reportFiles(f)
        item("report", MarkdownText.code(files.first) + (files.more > 0 ? " (+\(files.more) more)" : ""))
        lines += ["", "Stack \(FindingText.stackHint(f)):", ""]
        lines += MarkdownText.codeBlock(FindingText.stackLines(f, maxFrames: maxFrames))
        if f.createdStack != nil {
            lines += ["", "Where the source was created (▶ your code):", ""]
            lines += MarkdownText.codeBlock(FindingText.createdStackLines(f, maxFrames: maxFrames))
        }
        for cause in FindingText.causeStacks(f) {
            lines += ["", "Cause: \(MarkdownText.text(cause.title)) (▶ your code):", ""]
            lines += MarkdownText.codeBlock(FindingText.stackLines(cause.stack, maxFrames: maxFrames))
        }
        return lines
    }
}

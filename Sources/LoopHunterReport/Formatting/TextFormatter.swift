/// Terminal text: a headline, one block per finding (what, where in the app's code, the view, the
/// rest of the loop, why layout was requested again, when and where seen, the run-up, the memory side, the stack with the app's
/// frames marked), then the processes and how symbolization went.
public struct TextFormatter: FindingsFormatter {
    public let colors: Bool
    /// Frames listed per stack; the rest are counted.
    public let maxFrames: Int

    public init(colors: Bool = false, maxFrames: Int = 16) {
        self.colors = colors
        self.maxFrames = maxFrames
    }

    public func format(_ a: Analysis) -> String {
        let style = ANSIStyle(enabled: colors)
        var out: [String] = []
        let processCount = a.processes.count
        out.append(style.bold("LoopHunter: \(FindingText.headline(a))") + " in \(a.directory) "
                   + "(\(a.reportCount) report\(a.reportCount == 1 ? "" : "s"), \(processCount) process\(processCount == 1 ? "" : "es"))")
        for sentence in a.unseen ?? [] { out.append(style.yellow("  not seen: ") + FindingText.oneLine(sentence)) }
        for finding in a.findings {
            out.append("")
            out += blockLines(finding, style: style)
        }
        if let heading = FindingText.suppressedHeading(a) {
            out.append("")
            out.append(style.dim(heading + ":"))
            for s in a.suppressed ?? [] { out.append("  " + style.dim(FindingText.oneLine(FindingText.suppressedLine(s)))) }
        }
        if !a.processes.isEmpty {
            out.append("")
            out.append(style.bold("Processes"))
            for p in a.processes { out.append("  " + processLine(p)) }
        }
        if !a.problems.isEmpty {
            out.append("")
            out.append(style.yellow(FindingText.skipped(a) + ":"))
            for problem in a.problems { out.append("  " + FindingText.oneLine(problem)) }
        }
        if !a.findings.isEmpty {
            out.append("")
            out.append(style.dim("Symbolized with \(a.symbolizer)."))
            for note in a.symbolizationNotes { out.append(style.dim("  fallback to in-process names: \(note)")) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// One finding's block (what `loophunter watch` prints per report).
    public func block(_ f: Finding) -> String {
        blockLines(f, style: ANSIStyle(enabled: colors)).joined(separator: "\n")
    }

    private func blockLines(_ f: Finding, style: ANSIStyle) -> [String] {
        // Everything from a report goes through FindingText.oneLine: a name holding a newline or
        // an escape sequence must not break the layout or drive the terminal.
        let clean = FindingText.oneLine
        let mark = f.severity == .error ? style.red("✖") : style.yellow("▲")
        var lines = ["\(mark) \(style.bold(clean(f.kind.rawValue)))  \(clean(f.title))"]
        func row(_ label: String, _ value: String) {
            lines.append("   " + style.dim(label.padding(toLength: 9, withPad: " ", startingAt: 0)) + value)
        }
        if let location = FindingText.location(f.appFrame) { row("where", style.cyan(clean(location))) }
        row("view", clean(FindingText.view(f)))
        if f.objects.count > 1 { row("also", clean(f.objects.dropFirst().map(\.label).joined(separator: ", "))) }
        if !f.members.isEmpty { row("loop", clean(FindingText.members(f))) }
        row("seen", clean(FindingText.seen(f)))
        for (label, value) in FindingText.causeRows(f) { row(label, label == "by" ? style.cyan(clean(value)) : clean(value)) }
        if let history = FindingText.history(f) { row("history", history) }
        for (label, value) in FindingText.memoryRows(f) { row(label, clean(value)) }
        for (label, value) in FindingText.healthRows(f) {
            // The stuck frame of a stall is what to look at first.
            row(label, label == "stuck" ? style.bold(clean(value)) : clean(value))
        }
        row("stack", style.dim(FindingText.stackHint(f)))
        func stack(_ stackLines: [String]) {
            for line in stackLines {
                lines.append("    " + (line.hasPrefix("▶") ? style.bold(style.cyan("▶") + String(line.dropFirst())) : line))
            }
        }
        stack(FindingText.stackLines(f, maxFrames: maxFrames))
        if f.createdStack != nil {
            row("created", style.dim("(where the source was created; ▶ your code)"))
            stack(FindingText.createdStackLines(f, maxFrames: maxFrames))
        }
        for cause in FindingText.causeStacks(f) {
            row(cause.label, style.dim("(\(clean(cause.title)); ▶ your code)"))
            stack(FindingText.stackLines(cause.stack, maxFrames: maxFrames))
        }
        let files = FindingText.reportFiles(f)
        row("report", clean(files.first) + (files.more > 0 ? " (+\(files.more) more)" : ""))
        return lines
    }

    /// One process's summary line (what `loophunter watch` prints per summary).
    public func processLine(_ p: ProcessOverview) -> String {
        var text = FindingText.oneLine(FindingText.processLine(p))
        for message in p.configMessages { text += "\n    " + FindingText.oneLine(message) }
        if let rows = FindingText.windowRows(p), !rows.isEmpty {
            text += "\n    " + FindingText.oneLine(FindingText.windowsHeading(p)) + ":"
            for line in FindingText.alignedTable([FindingText.windowColumns] + rows) { text += "\n      " + line }
        }
        return text
    }
}

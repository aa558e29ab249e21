/// Terminal text: a headline, one block per finding (what, where in the app's code, the view, the
/// rest of the loop, when and where seen, the run-up, the stack with the app's frames marked),
/// then the processes and how symbolization went.
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
        for finding in a.findings {
            out.append("")
            out += block(finding, style: style)
        }
        if !a.processes.isEmpty {
            out.append("")
            out.append(style.bold("Processes"))
            for p in a.processes { out.append("  " + processLine(p)) }
        }
        if !a.problems.isEmpty {
            out.append("")
            out.append(style.yellow("\(a.problems.count) file\(a.problems.count == 1 ? "" : "s") skipped:"))
            for problem in a.problems { out.append("  " + problem) }
        }
        if !a.findings.isEmpty {
            out.append("")
            out.append(style.dim("Symbolized with \(a.symbolizer)."))
            for note in a.symbolizationNotes { out.append(style.dim("  fallback to in-process names: \(note)")) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    private func block(_ f: Finding, style: ANSIStyle) -> [String] {
        let mark = f.severity == .error ? style.red("✖") : style.yellow("▲")
        var lines = ["\(mark) \(style.bold(f.kind))  \(f.title)"]
        func row(_ label: String, _ value: String) {
            lines.append("   " + style.dim(label.padding(toLength: 9, withPad: " ", startingAt: 0)) + value)
        }
        if let location = FindingText.location(f.appFrame) { row("where", style.cyan(location)) }
        row("view", f.object.path)
        if f.objects.count > 1 { row("also", f.objects.dropFirst().map(\.label).joined(separator: ", ")) }
        if !f.members.isEmpty { row("loop", FindingText.members(f)) }
        row("seen", "\(FindingText.reports(f)), \(FindingText.processes(f)), thread \(f.threads.joined(separator: ", ")), \(f.firstSeen)"
            + (f.lastSeen != f.firstSeen ? " .. \(f.lastSeen)" : ""))
        if !f.history.isEmpty {
            let calls = f.history.map(\.layoutCalls)
            row("history", "layout calls in the last \(calls.count) iteration\(calls.count == 1 ? "" : "s"): "
                + FindingText.sparkline(calls) + " (max \(calls.max() ?? 0))")
        }
        row("stack", style.dim("(▶ your code)"))
        let shown = f.stack.prefix(maxFrames)
        let nameWidth = min(40, shown.map { FindingText.frameLine($0).function.count }.max() ?? 0)
        let locationWidth = min(32, shown.map { FindingText.frameLine($0).location.count }.max() ?? 0)
        for frame in shown {
            let (function, location, module) = FindingText.frameLine(frame)
            let marker = frame.origin == .app ? style.cyan("▶") : " "
            var line = "    \(marker) #\(String(frame.index).padding(toLength: 3, withPad: " ", startingAt: 0)) "
            line += function.padding(toLength: max(nameWidth, function.count), withPad: " ", startingAt: 0) + "  "
            line += location.padding(toLength: max(locationWidth, location.count), withPad: " ", startingAt: 0) + "  "
            line += style.dim(module + (frame.source == .inProcess ? " (in-process name)" : ""))
            lines.append(frame.origin == .app ? style.bold(line) : line)
        }
        if f.stack.count > shown.count { lines.append(style.dim("      ... \(f.stack.count - shown.count) more frames")) }
        row("report", f.reportPaths[0] + (f.reportPaths.count > 1 ? " (+\(f.reportPaths.count - 1) more)" : ""))
        return lines
    }

    private func processLine(_ p: ProcessOverview) -> String {
        let name = p.executable.split(separator: "/").last.map(String.init) ?? p.executable
        var text = "pid \(p.pid) \(name): \(p.iterations) iterations, \(p.layoutCalls) layouts"
        if p.layoutHooksCalled.isEmpty { text += " (no layout seen: toolkit not supported or not interposable)" }
        text += ", \(p.breaches) breach\(p.breaches == 1 ? "" : "es")"
        if p.breaches > 0 {
            text += " (\(p.written) written, \(p.suppressed) suppressed, \(p.joined) joined"
            if p.capped > 0 { text += ", \(p.capped) over the cap" }
            if p.failed > 0 { text += ", \(p.failed) NOT WRITTEN" }
            text += ")"
        }
        for message in p.configMessages { text += "\n    " + message }
        return text
    }
}

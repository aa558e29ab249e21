/// One finding's section of the HTML page: title, facts (the cause among them), timeline, stacks.
extension HTMLFormatter {
    func section(_ f: Finding, number: Int) -> [String] {
        let id = anchor(f)
        var out = [
            "<section class=\"finding \(f.severity.rawValue)\" id=\"\(id)\" aria-labelledby=\"\(id)-title\">",
            "<h2 id=\"\(id)-title\">\(number). \(mark(f.severity)) <span class=\"kind\">\(MarkupText.escape(f.kind.rawValue))</span> "
                + "\(MarkupText.escape(f.title))</h2>",
            "<dl class=\"facts\">",
        ]
        func fact(_ label: String, _ html: String) { out.append("<dt>\(label)</dt><dd>\(html)</dd>") }
        if let location = FindingText.location(f.appFrame) { fact("where", "<code>\(MarkupText.escape(location))</code>") }
        fact("view", MarkupText.escape(FindingText.view(f)))
        if f.objects.count > 1 { fact("also", MarkupText.escape(f.objects.dropFirst().map(\.label).joined(separator: ", "))) }
        if !f.members.isEmpty { fact("loop", MarkupText.escape(FindingText.members(f))) }
        for (label, value) in FindingText.causeRows(f) {
            fact(label, label == "by" && f.cause?.requester != nil ? "<code>\(MarkupText.escape(value))</code>" : MarkupText.escape(value))
        }
        fact("seen", MarkupText.escape(FindingText.seen(f)))
        for (label, value) in FindingText.memoryRows(f, sparkline: false) { fact(label, MarkupText.escape(value)) }
        for (label, value) in FindingText.healthRows(f) {
            fact(label, label == "stuck" ? "<strong>\(MarkupText.escape(value))</strong>" : MarkupText.escape(value))
        }
        fact("reports", "<ul>" + f.reportPaths.map { "<li><code>\(MarkupText.escape($0))</code></li>" }.joined() + "</ul>")
        out.append("</dl>")
        if let timeline = SVGTimeline.history(of: f, id: "\(id)-timeline"), let breach = f.history.last {
            out += [
                "<figure>",
                timeline.svg(),
                "<figcaption>" + SVGTimeline.caption(of: f) + " per "
                    + (f.historyUnit == "frame" ? "frame" : "event-loop iteration") + " of thread "
                    + "\(MarkupText.escape(f.threads.first ?? "?")) before the report"
                    + (f.history.contains { $0.objectSize != nil } ? ", and the size the object was given in each" : "")
                    + "; the breach, \(MarkupText.escape(f.historyUnit)) \(breach.iteration), in red. "
                    + "Hover a bar or point for its value.</figcaption>",
                "</figure>",
            ]
        }
        out += stack(f.stack, title: "Stack" + (f.kind.stackCaption.map { " (\($0))" } ?? ""))
        if let created = f.createdStack {
            out += stack(created, title: "Where the source was created")
        }
        for cause in FindingText.causeStacks(f) {
            out += stack(cause.stack, title: "Cause: " + cause.title)
        }
        out.append("</section>")
        return out
    }

    private func stack(_ frames: [SymbolizedFrame], title: String) -> [String] {
        let appFrames = frames.filter { $0.origin == .app }.count
        var out = [
            "<details open=\"open\">",
            "<summary>\(MarkupText.escape(title)): \(frames.count) frame\(frames.count == 1 ? "" : "s"), \(appFrames) in your code (▶)</summary>",
            "<table class=\"stack\">",
            "<thead><tr><th class=\"marker\"><span class=\"muted\">▶</span></th><th class=\"num\">#</th><th>function</th>"
                + "<th>location</th><th>module</th><th>offset</th></tr></thead>",
            "<tbody>",
        ]
        for frame in frames {
            let app = frame.origin == .app
            var function = MarkupText.escape(frame.displayName)
            let inlinedInto = FindingText.inlinedInto(frame)
            if !inlinedInto.isEmpty {
                function += "<span class=\"detail\">inlined into \(MarkupText.escape(inlinedInto.joined(separator: ", ")))</span>"
            }
            var location = ""
            if let primary = frame.primary, let file = primary.file {
                let full = file + (primary.line.map { ":\($0)" } ?? "") + (primary.column.map { ":\($0)" } ?? "")
                location = "<span title=\"\(MarkupText.escape(full))\">\(MarkupText.escape(primary.shortLocation ?? file))</span>"
            }
            var module = "<span title=\"\(MarkupText.escape(frame.module ?? ""))\">\(MarkupText.escape(frame.moduleName ?? "?"))</span>"
            if frame.source == .inProcess { module += "<span class=\"detail\">in-process name</span>" }
            if let note = frame.note { module += "<span class=\"detail\">\(MarkupText.escape(note))</span>" }
            let marker = app ? "<span role=\"img\" aria-label=\"your code\">▶</span>" : ""
            out.append("<tr class=\"\(frame.origin.rawValue)\"><td class=\"marker\">\(marker)</td><td class=\"num\">\(frame.index)</td>"
                       + "<td>\(function)</td><td>\(location)</td><td>\(module)</td>"
                       + "<td>\(MarkupText.escape(frame.offset ?? frame.pc))</td></tr>")
        }
        out += ["</tbody>", "</table>", "</details>"]
        return out
    }
}

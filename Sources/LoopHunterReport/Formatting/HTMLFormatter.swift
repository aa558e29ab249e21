/// One self-contained HTML page (inline CSS, no script, no external resource): the headline, a
/// table of the findings, one section per finding (the facts with the memory side, an SVG timeline
/// of its event-loop history, the stack with the app's frames highlighted), then the processes,
/// the files skipped and how symbolization went.
///
/// No HTML-building package is available to this project, so the page is built as strings, with
/// every piece of text through the one escaper, ``MarkupText/escape(_:escapingApostrophes:)``.
/// The markup is also well-formed XML (void elements closed, only XML's entities), so XML tools
/// can read it.
public struct HTMLFormatter: FindingsFormatter {
    public init() {}

    public func format(_ a: Analysis) -> String {
        let headline = "LoopHunter: \(FindingText.headline(a))"
        var out = [
            "<!DOCTYPE html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\"/>",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
            "<meta name=\"generator\" content=\"LoopHunter\"/>",
            "<title>\(MarkupText.escape(headline))</title>",
            "<style>",
            HTMLStyleSheet.css,
            "</style>",
            "</head>",
            "<body>",
            "<header>",
            "<h1>\(MarkupText.escape(headline))</h1>",
            "<p class=\"muted\">In <code>\(MarkupText.escape(a.directory))</code>: \(MarkupText.escape(FindingText.totals(a))).</p>",
            "</header>",
            "<main>",
        ]
        if let unseen = a.unseen {
            out += ["<section class=\"problems unseen\">", "<h2>Not seen</h2>", "<ul>"]
            out += unseen.map { "<li>\(MarkupText.escape($0))</li>" }
            out += ["</ul>", "</section>"]
        }
        if !a.findings.isEmpty {
            out += summaryTable(a.findings)
            for (number, finding) in zip(1..., a.findings) { out += section(finding, number: number) }
        }
        if let heading = FindingText.suppressedHeading(a) {
            out += ["<section class=\"suppressed\">", "<h2>\(MarkupText.escape(heading))</h2>", "<ul>"]
            out += (a.suppressed ?? []).map { "<li>\(MarkupText.escape(FindingText.suppressedLine($0)))</li>" }
            out += ["</ul>", "</section>"]
        }
        if !a.processes.isEmpty {
            out += ["<section class=\"processes\">", "<h2>Processes</h2>", "<ul>"]
            for p in a.processes {
                var item = "<li>\(MarkupText.escape(FindingText.processLine(p)))"
                if !p.configMessages.isEmpty {
                    item += "<ul>" + p.configMessages.map { "<li>\(MarkupText.escape($0))</li>" }.joined() + "</ul>"
                }
                out.append(item + "</li>")
            }
            out.append("</ul>")
            for p in a.processes { out += windowTable(p) }
            out.append("</section>")
        }
        if !a.problems.isEmpty {
            out += ["<section class=\"problems\">", "<h2>\(MarkupText.escape(FindingText.skipped(a)))</h2>", "<ul>"]
            out += a.problems.map { "<li>\(MarkupText.escape($0))</li>" }
            out += ["</ul>", "</section>"]
        }
        out.append("</main>")
        if !a.findings.isEmpty {
            out += ["<footer class=\"muted\">", "<p>Symbolized with \(MarkupText.escape(a.symbolizer)).</p>"]
            if !a.symbolizationNotes.isEmpty {
                out.append("<ul>")
                out += a.symbolizationNotes.map { "<li>fallback to in-process names: \(MarkupText.escape($0))</li>" }
                out.append("</ul>")
            }
            out.append("</footer>")
        }
        out += ["</body>", "</html>"]
        return out.joined(separator: "\n") + "\n"
    }

    private func summaryTable(_ findings: [Finding]) -> [String] {
        var out = [
            "<table class=\"summary\">",
            "<thead><tr><th class=\"num\">#</th><th>kind</th><th>object</th><th class=\"num\">count / threshold</th>"
                + "<th>where</th><th>reports</th></tr></thead>",
            "<tbody>",
        ]
        for (number, f) in zip(1..., findings) {
            let location = FindingText.location(f.appFrame).map { "<code>\(MarkupText.escape($0))</code>" } ?? "—"
            out.append("<tr><td class=\"num\"><a href=\"#\(anchor(f))\">\(number)</a></td>"
                       + "<td>\(mark(f.severity)) \(MarkupText.escape(f.kind.rawValue))</td>"
                       + "<td>\(MarkupText.escape(f.object.label))</td>"
                       + "<td class=\"num\">\(MarkupText.escape(FindingText.countAndThreshold(f)))</td>"
                       + "<td>\(location)</td>"
                       + "<td>\(MarkupText.escape(FindingText.reports(f)))</td></tr>")
        }
        out += ["</tbody>", "</table>"]
        return out
    }

    /// A process's time-to-first-frame table (schema 1.3), when it lists windows.
    private func windowTable(_ p: ProcessOverview) -> [String] {
        guard let rows = FindingText.windowRows(p), !rows.isEmpty else { return [] }
        var out = [
            "<h3>\(MarkupText.escape(FindingText.windowsHeading(p)))</h3>",
            "<table class=\"windows\">",
            "<thead><tr>" + FindingText.windowColumns.enumerated().map { index, column in
                index == 3 ? "<th class=\"num\">\(MarkupText.escape(column))</th>" : "<th>\(MarkupText.escape(column))</th>"
            }.joined() + "</tr></thead>",
            "<tbody>",
        ]
        for row in rows {
            out.append("<tr>" + row.enumerated().map { index, cell in
                index == 3 ? "<td class=\"num\">\(MarkupText.escape(cell))</td>" : "<td>\(MarkupText.escape(cell))</td>"
            }.joined() + "</tr>")
        }
        out += ["</tbody>", "</table>"]
        return out
    }

    /// The element id of a finding's section (ids are hex digits, escaped all the same).
    func anchor(_ f: Finding) -> String { MarkupText.escape("finding-\(f.id)") }

    /// `✖` or `▲`, coloured by severity, with the severity as its accessible name.
    func mark(_ severity: Severity) -> String {
        "<span class=\"mark \(severity.rawValue)\" role=\"img\" aria-label=\"\(severity.rawValue)\">\(FindingText.mark(severity))</span>"
    }
}

/// Markdown escaping for text that comes from reports (GitHub-flavoured Markdown, as job summaries
/// and issues render it). Everything is made single-line first (``FindingText/oneLine(_:)``), so
/// report text can never start a line, and so never a heading, list, quote or table row.
enum MarkdownText {
    /// Characters that can start inline markup anywhere in a line: emphasis, code, links and
    /// images, raw HTML and autolinks, entities, strikethrough, table cells, math, escapes.
    private static let special: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", "&", "|", "~", "$"]

    /// Prose: each special character backslash-escaped. Safe in a table cell too (`|` is escaped).
    static func text(_ raw: String) -> String {
        var out = ""
        for character in FindingText.oneLine(raw) {
            if special.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A code span whose fence is longer than any run of backticks inside it, so nothing in the
    /// text can close it. `inTable` also escapes `|`, which GFM splits cells on even inside code
    /// spans (and turns back into `|` there).
    static func code(_ raw: String, inTable: Bool = false) -> String {
        var content = FindingText.oneLine(raw)
        if content.isEmpty { return "—" }
        if inTable { content = content.replacingOccurrences(of: "|", with: "\\|") }
        let fence = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
        // A leading or trailing backtick (or space) would merge with the fence (or be stripped):
        // CommonMark removes exactly one padding space on each side.
        let pad = content.first == "`" || content.last == "`" || content.first == " " || content.last == " "
        return pad ? "\(fence) \(content) \(fence)" : "\(fence)\(content)\(fence)"
    }

    /// A fenced code block that no line of `lines` can close: the fence is longer than every run
    /// of backticks in the body, and at least three.
    static func codeBlock(_ lines: [String], info: String = "text") -> [String] {
        let body = lines.map(FindingText.oneLine)
        let longest = body.map { longestRun(of: "`", in: $0) }.max() ?? 0
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return [fence + info] + body + [fence]
    }

    /// One table row: cells already escaped for a table.
    static func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0, current = 0
        for c in text {
            current = c == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}

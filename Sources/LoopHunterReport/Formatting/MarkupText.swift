/// The one escaper of the markup formats, HTML and JUnit XML, used for every piece of text that
/// goes into a document, in element content and in attribute values alike (inline SVG included).
/// There is no HTML, SVG or XML building package available to this project, so those documents
/// are built as strings, and this function is what makes that safe: `&`, `<`, `>` and `"` become
/// entities, and so does `'` unless `escapingApostrophes` is false; characters that have no
/// business in a document become visible stand-ins (``FindingText/oneLine(_:)``): controls
/// (those XML 1.0 forbids among them, and U+FFFE, U+FFFF), and tabs and line breaks, which
/// attribute-value normalization would otherwise turn into spaces. The result is valid XML too,
/// so the HTML page parses as XHTML. Multi-line content is made by joining escaped lines with
/// newlines.
enum MarkupText {
    /// `raw` escaped. `escapingApostrophes`: `'` as `&#39;` too, as the HTML page has it (an
    /// attribute value there may be single-quoted); the JUnit format, whose attribute values are
    /// always double-quoted, leaves it as is.
    static func escape(_ raw: String, escapingApostrophes: Bool = true) -> String {
        let text = FindingText.oneLine(raw)
        let special = escapingApostrophes ? "&<>\"'" : "&<>\""
        guard text.contains(where: { special.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'" where escapingApostrophes: out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

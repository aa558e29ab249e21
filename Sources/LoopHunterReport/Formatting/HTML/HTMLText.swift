/// The one HTML escaper of the HTML format, used for every piece of text that goes into the page,
/// in element content and in (double- or single-quoted) attribute values alike, inline SVG
/// included. There is no HTML or SVG building package available to this project, so the page is
/// built as strings, and this function is what makes that safe: `&`, `<`, `>`, `"` and `'`
/// become entities, and characters that have no business in a document (controls, line breaks)
/// become visible stand-ins (``FindingText/oneLine(_:)``). The result is also valid XML, so the
/// page parses as XHTML too.
enum HTMLText {
    static func escape(_ raw: String) -> String {
        let text = FindingText.oneLine(raw)
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

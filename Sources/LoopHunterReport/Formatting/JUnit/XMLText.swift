/// The one XML escaper of the JUnit format, for element content and attribute values alike
/// (attribute values are always written in double quotes): `&`, `<`, `>` and `"` become
/// entities, and characters XML 1.0 forbids (controls other than tab, newline and carriage
/// return, U+FFFE, U+FFFF) are replaced by visible stand-ins (``FindingText/oneLine(_:)``), as
/// are tabs and line breaks, which attribute-value normalization would otherwise turn into
/// spaces. Multi-line content is made by joining escaped lines with newlines.
enum XMLText {
    static func escape(_ raw: String) -> String {
        let text = FindingText.oneLine(raw)
        guard text.contains(where: { "&<>\"".contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

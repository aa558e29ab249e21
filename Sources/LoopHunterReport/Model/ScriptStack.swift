/// The interpreted stack of a layout request (schema 1.7, a report's ``ReportCause/requestScript``):
/// the Python, JavaScript or QML functions that were running when it was made, innermost first. A
/// native stack of a PyGObject, GJS or Qt Quick program shows only the interpreter's (or the QML
/// engine's) frames; these name the script's own code.
public struct ScriptStack: Codable, Sendable, Equatable {
    /// `python`, `javascript` or `qml`.
    public let language: String
    public let frames: [ScriptFrame]

    /// `Python`, `JavaScript`, `QML`: the language as a heading says it.
    public var languageName: String {
        switch language {
        case "python": "Python"
        case "javascript": "JavaScript"
        case "qml": "QML"
        default: language
        }
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ScriptStack: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        language = try json.decode(CodingKeys.language)
        frames = try json.decode(CodingKeys.frames)
    }
}

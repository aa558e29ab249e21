/// The failure of a test case: one finding.
struct JUnitFailure: Sendable, Equatable {
    /// The finding's title.
    let message: String
    /// The finding's kind.
    let type: String
    /// Lines of details and the stack (each escaped on its own).
    let lines: [String]

    var xml: String {
        let escape = { (text: String) in MarkupText.escape(text, escapingApostrophes: false) }
        return "<failure message=\"\(escape(message))\" type=\"\(escape(type))\">"
            + lines.map(escape).joined(separator: "\n") + "</failure>"
    }
}

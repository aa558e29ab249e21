/// The failure of a test case: one finding.
struct JUnitFailure: Sendable, Equatable {
    /// The finding's title.
    let message: String
    /// The finding's kind.
    let type: String
    /// Lines of details and the stack (each escaped on its own).
    let lines: [String]

    var xml: String {
        "<failure message=\"\(XMLText.escape(message))\" type=\"\(XMLText.escape(type))\">"
            + lines.map(XMLText.escape).joined(separator: "\n") + "</failure>"
    }
}

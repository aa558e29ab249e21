/// A test case of the JUnit report: a finding (failed), or the one passing case of a clean run.
struct JUnitTestCase: Sendable, Equatable {
    /// `loophunter.<kind>`
    let classname: String
    /// `<object label> at <app location>`
    let name: String
    let failure: JUnitFailure?
    /// Why the case was skipped: the `--suppress` rule that matched the finding.
    var skipped: String? = nil

    /// The element's lines, each starting with `indent` (the failure's text is not indented).
    func xml(indent: String) -> [String] {
        let escape = { (text: String) in MarkupText.escape(text, escapingApostrophes: false) }
        let open = indent + "<testcase classname=\"\(escape(classname))\" name=\"\(escape(name))\""
        if let skipped { return [open + ">", indent + "  <skipped message=\"\(escape(skipped))\"/>", indent + "</testcase>"] }
        guard let failure else { return [open + "/>"] }
        return [open + ">", indent + "  " + failure.xml, indent + "</testcase>"]
    }
}

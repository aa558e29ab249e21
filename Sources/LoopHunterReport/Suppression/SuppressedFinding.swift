/// A finding a suppression rule matched: kept in every output, apart from the findings, with the
/// rule that matched it.
public struct SuppressedFinding: Sendable, Equatable, Codable {
    public let finding: Finding
    /// The rule as written, e.g. `kind:layout-streak type:GtkLabel`.
    public let rule: String
    /// Where the rule is: `file:line`.
    public let location: String
    /// The rule's comment, if it has one.
    public let reason: String?

    public init(finding: Finding, rule: SuppressionRule) {
        self.finding = finding
        self.rule = rule.text
        self.location = rule.location
        self.reason = rule.reason
    }
}

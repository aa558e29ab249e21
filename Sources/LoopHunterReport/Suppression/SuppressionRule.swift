/// One line of a suppression file: every condition must hold for a finding to be suppressed.
public struct SuppressionRule: Sendable, Equatable {
    public let conditions: [SuppressionCondition]
    /// `file:line`, for messages and for the outputs' suppressed sections.
    public let location: String
    /// The text after `#` on the rule's line, if any: why it is suppressed.
    public let reason: String?

    public init(conditions: [SuppressionCondition], location: String, reason: String?) {
        self.conditions = conditions
        self.location = location
        self.reason = reason
    }

    /// The conditions as written, e.g. `kind:layout-streak type:GtkLabel`.
    public var text: String { conditions.map(\.text).joined(separator: " ") }

    public func matches(_ finding: Finding) -> Bool {
        conditions.allSatisfy { $0.matches(finding) }
    }
}

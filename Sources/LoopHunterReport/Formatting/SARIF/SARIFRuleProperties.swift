/// The property bag of a rule, as code-scanning UIs read it (tags to filter by, precision).
struct SARIFRuleProperties: Codable, Sendable, Equatable {
    let tags: [String]
    let precision: String
}

/// SARIF's record that a result was suppressed: by a `--suppress` rule, outside the source.
struct SARIFSuppression: Codable, Sendable, Equatable {
    /// Always `external` (the rule lives in a suppression file, not in the code).
    let kind: String
    /// The rule, where it is, and its comment.
    let justification: String
}

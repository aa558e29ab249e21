/// A rule's default configuration: the level of its results.
struct SARIFReportingConfiguration: Codable, Sendable, Equatable {
    /// `error`, `warning` or `note`.
    let level: String
}

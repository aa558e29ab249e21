/// A rule (`reportingDescriptor`): one kind of finding, what it means and how to fix it.
struct SARIFRule: Codable, Sendable, Equatable {
    /// The finding kind, e.g. `layout-storm`.
    let id: String
    /// `LayoutStorm`
    let name: String
    let shortDescription: SARIFMessage
    let fullDescription: SARIFMessage
    let help: SARIFMessage
    let defaultConfiguration: SARIFReportingConfiguration
    let properties: SARIFRuleProperties
}

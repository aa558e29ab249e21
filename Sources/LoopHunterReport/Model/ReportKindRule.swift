/// What a kind of finding means and how to fix it, as the SARIF format states it in its rule
/// (`reportingDescriptor`) for the kind (see ``ReportKind/rule``). The level of the rule is the
/// kind's ``ReportKind/severity``.
public struct ReportKindRule: Sendable, Hashable {
    /// The rule id: the kind's raw value, e.g. `layout-storm`.
    public let id: String
    /// `LayoutStorm`
    public let name: String
    /// One sentence.
    public let shortDescription: String
    /// What the detector saw and which setting bounds it.
    public let fullDescription: String
    /// What it means and how to fix it.
    public let help: String
    /// Tags code-scanning UIs filter by, e.g. `performance`, `memory`.
    public let tags: [String]
    /// How sure a finding of the kind is to be a real problem: `high` or `medium`.
    public let precision: String

    /// A rule from its parts (the kinds' are in ``ReportKind/rule``).
    public init(id: String, name: String, shortDescription: String, fullDescription: String, help: String,
                tags: [String], precision: String) {
        self.id = id
        self.name = name
        self.shortDescription = shortDescription
        self.fullDescription = fullDescription
        self.help = help
        self.tags = tags
        self.precision = precision
    }
}

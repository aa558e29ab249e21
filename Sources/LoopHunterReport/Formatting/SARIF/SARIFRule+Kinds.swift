/// The rules LoopHunter knows: what each kind of finding means and how to fix it.
extension SARIFRule {
    /// The rule for `kind` (``ReportKind/rule``), at the kind's severity; a kind this build does
    /// not know gets a generic description.
    init(kind: ReportKind) {
        let rule = kind.rule
        self.init(
            id: rule.id, name: rule.name,
            shortDescription: SARIFMessage(text: rule.shortDescription),
            fullDescription: SARIFMessage(text: rule.fullDescription),
            help: SARIFMessage(text: rule.help),
            defaultConfiguration: SARIFReportingConfiguration(level: kind.severity.rawValue),
            properties: SARIFRuleProperties(tags: rule.tags, precision: rule.precision))
    }
}

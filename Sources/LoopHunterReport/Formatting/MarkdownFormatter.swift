/// Placeholder until the Markdown format lands in this next step.
public struct MarkdownFormatter: FindingsFormatter {
    public init() {}
    public func format(_ analysis: Analysis) -> String { JSONFormatter().format(analysis) }
}

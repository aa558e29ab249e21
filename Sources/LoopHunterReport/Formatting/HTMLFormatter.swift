/// Placeholder until the HTML format lands in this next step.
public struct HTMLFormatter: FindingsFormatter {
    public init() {}
    public func format(_ analysis: Analysis) -> String { JSONFormatter().format(analysis) }
}

/// Placeholder until the JUnit format lands in this next step.
public struct JUnitFormatter: FindingsFormatter {
    public init() {}
    public func format(_ analysis: Analysis) -> String { JSONFormatter().format(analysis) }
}

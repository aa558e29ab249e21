/// Placeholder until the SARIF format lands in this next step.
public struct SARIFFormatter: FindingsFormatter {
    public let sourceRoot: String?
    public init(sourceRoot: String? = nil) { self.sourceRoot = sourceRoot }
    public func format(_ analysis: Analysis) -> String { JSONFormatter().format(analysis) }
}

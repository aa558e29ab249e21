/// The output formats of `loophunter report` and `loophunter run`.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// For a terminal: colour only when asked (on a TTY, and NO_COLOR unset).
    case text
    /// The whole analysis, for scripts (schema `loophunter/analysis`).
    case json
    /// For a CI job summary or an issue tracker.
    case markdown
    /// A self-contained page with an SVG timeline per finding.
    case html
    /// SARIF 2.1.0, for code-scanning UIs: one result per finding at its first app frame.
    case sarif
    /// JUnit XML, for CI dashboards: one failing test case per finding.
    case junit

    public func formatter(_ options: FormatOptions = FormatOptions()) -> any FindingsFormatter {
        switch self {
        case .text: return TextFormatter(colors: options.colors)
        case .json: return JSONFormatter()
        case .markdown: return MarkdownFormatter()
        case .html: return HTMLFormatter()
        case .sarif: return SARIFFormatter(sourceRoot: options.sourceRoot)
        case .junit: return JUnitFormatter()
        }
    }
}

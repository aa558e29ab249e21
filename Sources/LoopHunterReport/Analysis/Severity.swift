/// How bad a finding is, for CI formats (SARIF level, JUnit failure vs. pass).
public enum Severity: String, Sendable, Codable, Comparable {
    case error
    case warning
    case note

    /// Layout loops pin the CPU and are bugs: errors. A toolkit's own warnings, and kinds this build
    /// does not know: warnings.
    public static func of(kind: String) -> Severity {
        switch kind {
        case "layout-storm", "layout-streak": return .error
        default: return .warning
        }
    }

    private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// How bad a finding is, for CI formats (SARIF level, JUnit failure vs. pass): see
/// ``ReportKind/severity`` for each kind's.
public enum Severity: String, Sendable, Codable, Comparable {
    case error
    case warning
    case note

    private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

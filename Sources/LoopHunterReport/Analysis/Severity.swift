/// How bad a finding is, for CI formats (SARIF level, JUnit failure vs. pass).
public enum Severity: String, Sendable, Codable, Comparable {
    case error
    case warning
    case note

    /// Layout loops pin the CPU and are bugs: errors. So is an allocation storm: tens of MiB
    /// allocated in one iteration stall the UI and push the process towards an out-of-memory kill
    /// whatever the program meant. Heap growth is the shape of a leak but may be a legitimate
    /// build-up (a document loading, a cache filling): a warning, as are a toolkit's own warnings
    /// and kinds this build does not know. Of the event-loop health kinds (schema 1.3), a stall (a
    /// frozen UI) and a timer whose callback will run on freed memory are errors; a slow first
    /// frame and a timer storm (sources piling up, a callback firing too often) are warnings.
    public static func of(kind: String) -> Severity {
        switch kind {
        case "layout-storm", "layout-streak", "alloc-storm", "stall", "timer-outlives-target": return .error
        default: return .warning
        }
    }

    private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

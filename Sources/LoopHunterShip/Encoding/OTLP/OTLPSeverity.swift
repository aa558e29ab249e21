import LoopHunterReport

/// An OTLP severity: the `SeverityNumber` enum value and its short text.
public struct OTLPSeverity: Sendable, Equatable {
    public let number: Int
    public let text: String

    public static let debug = OTLPSeverity(number: 5, text: "DEBUG")
    public static let info = OTLPSeverity(number: 9, text: "INFO")
    public static let warn = OTLPSeverity(number: 13, text: "WARN")
    public static let error = OTLPSeverity(number: 17, text: "ERROR")

    /// A layout loop is a warning (the program goes on, burning CPU); a toolkit warning keeps the
    /// level GLib gave it (`critical` is an error in OTLP's terms).
    public static func of(_ report: Report) -> OTLPSeverity {
        guard let level = report.warning?.level else { return .warn }
        switch level {
        case "error", "critical": return .error
        case "warning": return .warn
        case "message", "info": return .info
        case "debug": return .debug
        default: return .warn
        }
    }
}

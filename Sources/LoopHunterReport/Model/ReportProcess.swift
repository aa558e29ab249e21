/// The process a report or summary came from.
public struct ReportProcess: Codable, Sendable, Equatable {
    public let pid: Int
    public let ppid: Int
    /// Resolved path of the executable (`/proc/self/exe`); never the command line.
    public let executable: String
}

/// A process that reported.
public struct ProcessRef: Sendable, Hashable, Codable {
    public let pid: Int
    public let executable: String

    public init(pid: Int, executable: String) {
        self.pid = pid
        self.executable = executable
    }
}

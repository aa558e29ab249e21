import Foundation

/// The control file of an attach session: the preload's LOOPHUNTER_* variables (as `run` would put
/// them in the environment) and the time at which the session ends by itself if `loophunter attach`
/// is gone (CLOCK_MONOTONIC, shared by every process of the machine). The preload reads it with raw
/// system calls (interpose/lh_attach.c).
enum AttachControl {
    /// Writes the file into the report directory (readable by the target, which runs as our user).
    static func write(directory: String, pid: Int32, variables: [String: String], endsAfterSeconds: Double) throws -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) + UInt64(endsAfterSeconds * 1e9)
        var lines = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.append("deadline_ns=\(deadline)")
        let path = "\(directory)/attach-control-\(pid)"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }
}

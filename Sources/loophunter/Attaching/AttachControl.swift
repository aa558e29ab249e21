import Foundation

/// The control file of an attach session: the preload's LOOPHUNTER_* variables (as `run` would put
/// them in the environment), the time at which the session ends by itself if `loophunter attach`
/// is gone (CLOCK_MONOTONIC, shared by every process of the machine), and this command's pid (the
/// session ends within a second of it being gone; a later attach takes over such a session). The
/// preload reads it with raw system calls (interpose/lh_attach.c).
enum AttachControl {
    /// Writes the file into the report directory (readable by the target, which runs as our user).
    /// `owner`: the pid the preload may look at (nil: none, for a target in a seccomp sandbox).
    static func write(directory: String, pid: Int32, variables: [String: String], endsAfterSeconds: Double,
                      owner: Int32?) throws -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) + UInt64(endsAfterSeconds * 1e9)
        var lines = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.append("deadline_ns=\(deadline)")
        if let owner { lines.append("owner_pid=\(owner)") }
        // Hidden: a report directory's readers skip dot files, so one left by a killed command is no
        // "unreadable report" (the command removes it as soon as the preload has read it).
        let path = "\(directory)/.attach-control-\(pid)"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }
}

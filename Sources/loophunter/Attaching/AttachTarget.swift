import Foundation

/// The process `loophunter attach` is asked to watch, as /proc shows it before anything touches it:
/// whether it exists, whose it is, what it runs, and whether LoopHunter can be loaded into it.
struct AttachTarget {
    let pid: Int32
    /// The program's file name (from /proc/PID/exe, else its comm).
    let name: String
    let uid: UInt32
    /// The paths of the modules mapped into it.
    let modules: Set<String>

    /// Why the process cannot be attached to, as a sentence that says what to do; nil when it can.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads /proc/PID, or says why there is nothing to attach to.
    static func inspect(pid: Int32) throws(Refusal) -> AttachTarget {
        let proc = "/proc/\(pid)"
        var info = stat()
        guard stat(proc, &info) == 0 else {
            throw Refusal(description: "no process has pid \(pid) (it may have exited); give the pid of a running program, e.g. from `pgrep -n gedit`")
        }
        let comm = procText("\(proc)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/exe")).map { URL(fileURLWithPath: $0).lastPathComponent }
        let name = exe ?? comm
        if info.st_uid != geteuid() && geteuid() != 0 {
            throw Refusal(description: "\(name) (pid \(pid)) belongs to another user (uid \(info.st_uid)); run loophunter attach as that user, or as root")
        }
        guard let maps = procText("\(proc)/maps") else {
            throw Refusal(description: "cannot read /proc/\(pid)/maps of \(name) (pid \(pid)): it may have exited, or it is not dumpable (a set-user-ID program); run it under `loophunter run` instead")
        }
        var modules = Set<String>()
        for line in maps.split(separator: "\n") {
            if let slash = line.firstIndex(of: "/") { modules.insert(String(line[slash...])) }
        }
        return AttachTarget(pid: pid, name: name, uid: info.st_uid, modules: modules)
    }

    /// Loaded already: the preload under `loophunter run` (refused, with where its reports go), or an
    /// earlier attach (fine: the library stays loaded and starts a new session).
    var preloadedBy: String? {
        guard modules.contains(where: { $0.hasSuffix("/" + PreloadLocator.fileName) }) else { return nil }
        guard let environ = FileHandle(forReadingAtPath: "/proc/\(pid)/environ")?.readDataToEndOfFile() else { return nil }
        let variables = environ.split(separator: 0).compactMap { String(data: Data($0), encoding: .utf8) }
        guard let preloadLine = variables.first(where: { $0.hasPrefix("LD_PRELOAD=") }),
              preloadLine.contains(PreloadLocator.fileName) else { return nil }
        let dir = variables.first(where: { $0.hasPrefix("LOOPHUNTER_DIR=") }).map { String($0.dropFirst("LOOPHUNTER_DIR=".count)) }
        return "\(name) (pid \(pid)) already runs under the LoopHunter preload (LD_PRELOAD); its reports are in "
            + (dir.map { "\($0) (LOOPHUNTER_DIR)" } ?? "the directory its LOOPHUNTER_DIR names") + "; read them with `loophunter report`"
    }

    /// A /proc file's text (its size reads as 0, so it is read to its end).
    static func procText(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The process has exited (gone, or a zombie its parent has not reaped yet).
    static func isGone(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        guard let stat = procText("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state == "Z" || state == "X"
    }

    /// The process is in a seccomp filter sandbox (/proc/PID/status `Seccomp: 2`): LoopHunter inside
    /// must then make no system call a filter might punish (it never looks whether the command is alive).
    var sandboxed: Bool {
        guard let status = Self.procText("/proc/\(pid)/status") else { return false }
        return status.split(separator: "\n").contains { $0.hasPrefix("Seccomp:") && $0.dropFirst(8).trimmingCharacters(in: .whitespaces) == "2" }
    }

    /// The process sees pids as this command does (the same pid namespace: not in a Flatpak or a
    /// container), so LoopHunter inside can look whether this command is still alive by its pid.
    var sharesPidNamespace: Bool {
        let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")
        let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/pid")
        return ours != nil && ours == theirs
    }

    /// A program running under Valgrind: its code runs on Valgrind's own CPU, and code injected by
    /// ptrace runs natively in Valgrind's thread, which crashes it (measured).
    var underValgrind: String? {
        // The tool itself (e.g. /usr/libexec/valgrind/memcheck-amd64-linux) or its preloads (vgpreload_*).
        guard modules.contains(where: { $0.contains("/valgrind/") || URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("vgpreload_") })
        else { return nil }
        return "\(name) (pid \(pid)) runs under Valgrind, which code injected from outside would crash; "
            + "start it under `loophunter run` instead (LoopHunter's preload then runs inside Valgrind)"
    }

    /// A static or non-glibc program: LoopHunter loads through glibc's dlopen.
    var withoutGlibc: String? {
        if modules.contains(where: { URL(fileURLWithPath: $0).lastPathComponent == "libc.so.6" }) { return nil }
        return "\(name) (pid \(pid)) does not use glibc's libc.so.6 (statically linked, or another C library); "
            + "LoopHunter can only be loaded into dynamically linked glibc programs"
    }
}

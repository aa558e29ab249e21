import Foundation
import LoopHunterReport
import LoopHunterCLISupport

/// Runs the program under test as a child: its stdin, stdout and stderr are loophunter's; signals
/// sent to loophunter by other processes are forwarded to it (terminal signals reach it directly);
/// returns its pid and how it ended (``ProgramEnd``: its shell status is 128+N when signal N killed it).
struct ProgramRunner {
    let arguments: [String]
    let environment: [String: String]

    enum Failure: Error {
        case notFound(String)
        case notExecutable(String)
        case cannotStart(String, String)
    }

    func run() throws(Failure) -> (pid: Int, end: ProgramEnd) {
        let executable = try resolve(arguments[0])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        // The preload always writes a summary for a process whose parent this is, even one that
        // ran no event loop: a run can then tell "loaded, saw nothing" from "never loaded".
        var environment = environment
        environment["LOOPHUNTER_LAUNCHER_PID"] = String(getpid())
        process.environment = environment
        lh_relay_install()
        defer { lh_relay_uninstall() }
        do {
            try process.runWithDefaultSignalMask()
        } catch {
            throw .cannotStart(arguments[0], error.localizedDescription)
        }
        lh_relay_set_child(process.processIdentifier)
        process.waitUntilExit()
        let end: ProgramEnd = process.terminationReason == .uncaughtSignal
            ? .killed(process.terminationStatus) : .exited(process.terminationStatus)
        return (Int(process.processIdentifier), end)
    }

    /// The program's file: a name with a slash is a path; otherwise it is looked up on PATH, as a
    /// shell would.
    func resolve(_ name: String) throws(Failure) -> String {
        let manager = FileManager.default
        if name.contains("/") {
            guard manager.fileExists(atPath: name) else { throw .notFound(name) }
            guard manager.isExecutableFile(atPath: name) else { throw .notExecutable(name) }
            return name
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .notFound(name)
    }
}

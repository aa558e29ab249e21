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
        // The preload always writes a summary for a process whose parent this is, even one that
        // ran no event loop: a run can then tell "loaded, saw nothing" from "never loaded".
        var environment = environment
        environment["LOOPHUNTER_LAUNCHER_PID"] = String(getpid())
        lh_relay_install()
        defer { lh_relay_uninstall() }
        // posix_spawn and waitpid, not Foundation's Process: Process hands the child a socket it
        // watches for the child's end, which the program's own children inherit, so a program
        // killed by a CI timeout would keep `run` waiting for whatever it left running.
        let pid = try spawn(executable, environment: environment)
        lh_relay_set_child(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS (macros Swift does not import)
        let signal = status & 0x7f
        let end: ProgramEnd = signal != 0 && signal != 0x7f ? .killed(signal) : .exited((status >> 8) & 0xff)
        return (Int(pid), end)
    }

    /// Starts the program with the default signal mask (signals blocked here are not blocked
    /// there; signals this process ignores stay ignored, as under `nohup`).
    private func spawn(_ executable: String, environment: [String: String]) throws(Failure) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, nil, &attributes, argv, envp)
        guard result == 0 else {
            switch result {
            case ENOENT: throw .notFound(arguments[0])
            case EACCES: throw .notExecutable(arguments[0])
            default: throw .cannotStart(arguments[0], String(cString: strerror(result)))
            }
        }
        return pid
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

/// How the program `loophunter run` started ended, as its parent saw it.
public enum ProgramEnd: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// Signal N killed it.
    case killed(Int32)

    /// Its status as a shell gives it: the exit status, or 128 + N.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let status): return status
        case .killed(let signal): return 128 + signal
        }
    }

    /// `SIGSEGV`, `SIGKILL`, ... (`signal 40` for one without a usual name).
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
            9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
            16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU",
            23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO",
            30: "SIGPWR", 31: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

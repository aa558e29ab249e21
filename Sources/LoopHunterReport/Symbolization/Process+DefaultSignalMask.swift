import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process with no signal blocked, as a shell would.
    ///
    /// A child inherits the signal mask of the thread that spawns it, and Foundation does not
    /// reset it. Swift concurrency and Dispatch run code on worker threads that block almost every
    /// signal, so a program started from one of them would ignore SIGTERM and SIGINT forever (and
    /// LoopHunter's stall watchdog could never interrupt it). The calling thread's mask is cleared
    /// for the spawn only and restored right after.
    public func runWithDefaultSignalMask() throws {
        var none = sigset_t(), saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }
}

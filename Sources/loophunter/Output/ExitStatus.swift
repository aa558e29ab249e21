import ArgumentParser

/// The documented exit statuses of `loophunter` (also in `loophunter --help` and the README).
enum ExitStatus {
    static let success: Int32 = 0
    /// `report`: some files could not be read (the others were reported).
    static let filesSkipped: Int32 = 1
    /// The report directory or the preload cannot be used.
    static let unusable: Int32 = 2
    /// Findings, with --fail-on-breach.
    static let findings: Int32 = 3
    /// LoopHunter did not see the program: `report` on a directory with no summary and no report
    /// (and no file it could not read, which is status 1);
    /// `run --fail-on-breach` when the program it started left no summary (killed, crashed), only a
    /// snapshot, never loaded the preload, handed off to a running instance, or no process ran an
    /// event loop LoopHunter saw (and nothing was found).
    static let notSeen: Int32 = 4
    /// `ship`: some reports are still pending (the collector could not be reached in time, or
    /// answered with an error OTLP does not retry); running it again sends them (EX_TEMPFAIL).
    static let stillPending: Int32 = 75
    /// `ship` was stopped by Ctrl-C or SIGTERM (128 + SIGINT); the rest stays pending.
    static let interrupted: Int32 = 130
    /// The program exists but cannot be executed (as in shells).
    static let cannotExecute: Int32 = 126
    /// The program was not found (as in shells).
    static let notFound: Int32 = 127

    /// Ends the command with `status` (ArgumentParser's way of choosing the exit code).
    static func exit(_ status: Int32) -> ExitCode { ExitCode(status) }
}

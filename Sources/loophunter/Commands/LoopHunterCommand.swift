import ArgumentParser
import LoopHunterCLISupport

/// `loophunter`: runs programs under the LoopHunter preload and shows what it found.
@main
struct LoopHunterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loophunter",
        abstract: "Find layout feedback loops in Linux GUI programs.",
        discussion: """
            LoopHunter loads libloophunter.so into a program with LD_PRELOAD, counts layout calls per \
            object per event-loop iteration, and writes a report when an object loops. These commands run \
            programs under it and read, symbolize, group, format and ship its reports.

            Examples:
              loophunter run -- ./my-gtk-app --some-flag
              loophunter run --threshold 50 --fail-on-breach -- ./app
              loophunter report /tmp/lh --format html -o lh.html
              loophunter watch /tmp/lh
              loophunter ship /tmp/lh --to http://collector:4318
              loophunter doctor

            Exit status: 0 success; 1 some report files could not be read; 2 the report directory or \
            the preload is unusable; 3 findings with --fail-on-breach; 4 LoopHunter did not see the program \
            (`report`: a directory with no summary and no report; `run --fail-on-breach`: the program \
            left no summary, crashed, never loaded the preload, handed off to a running instance, or ran \
            no event loop); 64 a bad command line; 75 `ship`: \
            reports still pending (run again); 126/127 \
            the program cannot be run / is not found. `run` otherwise exits with the program's status \
            (128+N when a signal N killed it).
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, AttachCommand.self, ReportCommand.self, WatchCommand.self, ShipCommand.self, DoctorCommand.self]
    )

    /// `run` takes over the relayed signals before it parses anything: a CI timeout or supervisor
    /// that signals it while it is still starting (a loaded machine can take seconds to get here)
    /// must reach the program as it would once it runs, not kill `run` silently with the program
    /// never started. Signals that arrive before the program exists are sent on to it as soon as it
    /// is spawned; `run` then says how it ended, as for any other signal.
    static func main() async {
        if CommandLine.arguments.dropFirst().first == "run" { lh_relay_install() }
        await main(nil)
    }
}

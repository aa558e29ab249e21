import ArgumentParser
import Dispatch
import Foundation
import LoopHunterReport

/// `loophunter watch DIR`: prints each new report (and each process's summary) as it lands.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each new report as it lands in a report directory.",
        discussion: """
            Watches DIR (created 0700 if missing, so you can start watching before the program) and \
            prints every new report, symbolized, as soon as the preload writes it, and one line per \
            process summary once its process has left (a summary is kept current while the process \
            runs). Reports already there are counted, not printed (see `loophunter report`). \
            Ends on Ctrl-C, or when the process given with --until-exit has exited.

            Examples:
              loophunter watch /tmp/lh
              LOOPHUNTER_DIR=/tmp/lh ./app & loophunter watch /tmp/lh --until-exit $!
              loophunter watch /tmp/lh --format json | jq .title

            Exit status: 0; 2 when DIR cannot be watched.
            """)

    @Argument(help: ArgumentHelp("The report directory.", valueName: "dir"))
    var directory: String

    @Option(name: .customLong("until-exit"), help: ArgumentHelp("Stop once this process has exited.", valueName: "pid"))
    var untilExit: Int32?

    @Option(help: "text (a block per report) or json (one finding per line).")
    var format: WatchFormat = .text

    @Option(help: "Colour: auto, always, never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-symbolize"), help: "Do not run llvm-symbolizer.")
    var noSymbolize = false

    func validate() throws {
        if let untilExit, untilExit <= 0 { throw ValidationError("--until-exit needs a process id (a positive number)") }
    }

    func run() throws {
        do {
            _ = try RunDirectory.prepare(directory)
        } catch {
            Diagnostics.say("\(error)")
            throw ExitStatus.exit(ExitStatus.unusable)
        }
        let watcher = DirectoryWatcher(directory: directory)
        let stop = StopFlag()
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { stop.set() }
        interrupt.resume()
        defer { interrupt.cancel(); signal(SIGINT, SIG_DFL) }

        let existing = watcher.existing.filter { $0.hasPrefix("report-") }.count
        Diagnostics.say("watching \(directory)" + (existing > 0 ? " (\(existing) report\(existing == 1 ? "" : "s") already there: loophunter report \(directory))" : "")
                        + (untilExit.map { ", until process \($0) exits" } ?? ", Ctrl-C to stop"))
        let printer = WatchPrinter(format: format, colors: color.enabled(forDescriptor: 1),
                                   symbolizer: noSymbolize ? nil : LLVMSymbolizer(), directory: directory)
        // A summary is kept current while its process runs (schema 1.5, "state": "running"): it is
        // printed once, when its process has left (or, when watching stops, as it last was).
        var runningSummaries = Set<String>()
        while !stop.isSet {
            let finished = untilExit.map { kill($0, 0) != 0 && errno == ESRCH } ?? false
            for name in watcher.next(timeoutMs: finished ? 0 : 250) {
                if name.hasPrefix("summary-") { runningSummaries.insert(name) } else { printer.show(name) }
            }
            for name in runningSummaries.sorted() where finished || !printer.isRunningSummary(name) {
                printer.show(name)
                runningSummaries.remove(name)
            }
            if finished { break } // one last look after the process ended, then stop
        }
    }
}

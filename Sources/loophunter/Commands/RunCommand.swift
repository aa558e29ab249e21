import ArgumentParser
import Foundation
import LoopHunterReport
import LoopHunterShip

/// `loophunter run -- PROGRAM ARGS...`: runs a program under the preload, then prints what it found.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a program under LoopHunter and print what it found.",
        discussion: """
            Prepends libloophunter.so to LD_PRELOAD (keeping what is there), sets the LOOPHUNTER_* \
            variables from the options (your own LOOPHUNTER_* variables are kept), runs the program \
            with a fresh report directory unless --dir is given, and when it exits prints the grouped \
            findings on stderr (the program keeps stdout) or into --output. Signals sent to loophunter \
            are passed on to the program; its children are followed (they inherit LD_PRELOAD).

            Examples:
              loophunter run -- ./my-gtk-app --some-flag
              loophunter run --threshold 50 --fail-on-breach -- ./app
              loophunter run --dir /tmp/lh --format junit -o lh.xml -- ./app
              loophunter run --ship http://collector:4318 -- ./app

            When the program it started left no summary (killed: SIGSEGV, SIGKILL, a CI timeout's \
            SIGTERM), only a snapshot, never loaded the preload (LD_PRELOAD reset, a static or \
            set-user-ID program), handed its command line to an instance already running (a \
            GApplication such as gedit), or no process ran an event loop LoopHunter saw, it says so \
            by name and cause ("not seen: ..."), never "no loops found".

            Exit status: the program's (128+N when signal N killed it); when it exited 0 and \
            --fail-on-breach is given, 3 when something was found, 4 when LoopHunter did not see \
            the program (as above); 2 when the preload or the report directory cannot be used; \
            126/127 when the program cannot be run / is not found.
            """)

    @OptionGroup var detection: DetectionOptions

    @OptionGroup var placement: PlacementOptions

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Ship each report to this collector as it is written, and the rest when the program ends (see `loophunter ship`).", valueName: "url"))
    var ship: String?

    @Option(name: .customLong("ship-format"), help: "With --ship: otlp or json.")
    var shipFormat: PayloadFormat = .otlp

    @OptionGroup(title: "Shipping (with --ship)") var shipping: ShipOptions

    /// Everything after `--`: never parsed as loophunter's own options, whatever the program takes.
    @Argument(parsing: .postTerminator, help: ArgumentHelp("The program and its arguments, after --.", valueName: "program"))
    var command: [String] = []

    func validate() throws {
        guard let program = command.first, !program.isEmpty else {
            throw ValidationError("give the program to run after --, e.g. loophunter run --threshold 50 -- ./app --flag")
        }
        if let ship {
            try shipping.checkInputs(url: ship, option: "--ship", format: shipFormat)
        } else if shipping.tokenFile != nil || shipping.tokenEnv != nil || shipping.caFile != nil || shipping.insecure
                    || shipping.otlpEncoding != nil {
            throw ValidationError("--token-file, --token-env, --ca-file, --insecure and --otlp-encoding go with --ship URL; add --ship or drop them")
        }
    }

    static func check(_ value: Int?, _ flag: String, _ range: ClosedRange<Int>, _ meaning: String) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)): the number of \(meaning)")
    }

    func run() throws {
        let preloadPath = try placement.preloadPath()
        let reportDirectory = try placement.reportDirectory()
        // --ship: ship live; the program's exit status stays run's (the final line tells what was sent).
        var liveShipping: LiveShipping?
        if let ship {
            let configuration = try shipping.configuration(url: ship, option: "--ship", format: shipFormat, retryForDefault: 30,
                                                           version: LoopHunterCommand.configuration.version)
            do {
                liveShipping = try LiveShipping(configuration: configuration, directory: reportDirectory)
            } catch {
                Diagnostics.say("--ship: \(error)")
                throw ExitStatus.exit(ExitStatus.unusable)
            }
        }

        let pid: Int
        let end: ProgramEnd
        var unreachable: String?
        do {
            let runner = ProgramRunner(arguments: command, environment: environment(preload: preloadPath, dir: reportDirectory))
            if let executable = try? runner.resolve(command[0]), let problem = PreloadReach.problem(executable: executable) {
                Diagnostics.say(problem)
                unreachable = PreloadReach.shortReason(executable: executable)
            }
            (pid, end) = try runner.run()
        } catch {
            switch error {
            case .notFound(let name):
                Diagnostics.say("cannot run \(name): not found\(name.contains("/") ? "" : " on PATH")")
                throw ExitStatus.exit(ExitStatus.notFound)
            case .notExecutable(let name):
                Diagnostics.say("cannot run \(name): not executable (chmod +x it?)")
                throw ExitStatus.exit(ExitStatus.cannotExecute)
            case .cannotStart(let name, let why):
                Diagnostics.say("cannot run \(name): \(why)")
                throw ExitStatus.exit(ExitStatus.cannotExecute)
            }
        }

        // What a sandboxed process could only append to its spool becomes report files now.
        SpoolUnpacker.unpack(directory: reportDirectory)
        liveShipping?.finish()
        // The verdict: what LoopHunter saw of the program it started, from how it ended and what
        // the directory holds. A run it did not see is never called clean.
        let command = self.command
        let outcome = ReportPipeline(directory: reportDirectory, options: output, defaultDescriptor: 2).execute { collection in
            RunVerdict.judge(command: command, pid: pid, end: end, summaries: collection.summaries.map(\.summary),
                             reportCount: collection.reports.count, preloadProblem: unreachable)
        }
        Diagnostics.say("reports are in \(reportDirectory)")
        let status = end.shellStatus
        if status != 0 { throw ExitStatus.exit(status) }
        if outcome.status == ExitStatus.findings || outcome.status == ExitStatus.unusable { throw ExitStatus.exit(outcome.status) }
        if output.failOnBreach && outcome.blind { throw ExitStatus.exit(ExitStatus.notSeen) }
    }

    /// This process's environment with the preload first in LD_PRELOAD and the options' variables.
    func environment(preload: String, dir: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        let existing = (env["LD_PRELOAD"] ?? "").split(whereSeparator: { $0 == ":" || $0 == " " }).map(String.init)
        env["LD_PRELOAD"] = ([preload] + existing.filter { $0 != preload }).joined(separator: ":")
        env["LOOPHUNTER_DIR"] = dir
        env.merge(detection.variables) { _, option in option }
        return env
    }
}

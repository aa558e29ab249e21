import ArgumentParser
import Dispatch
import Foundation
import LoopHunterReport
import LoopHunterShip

/// `loophunter ship DIR --to URL`: delivers every report of a directory to a collector.
struct ShipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ship",
        abstract: "Send the reports of a directory to an OpenTelemetry collector or a JSON endpoint.",
        discussion: """
            Delivers every report in DIR at least once: over OTLP/HTTP (protobuf, or JSON with \
            --otlp-encoding json; many reports per request, POST /v1/logs when the URL has no path) or as plain JSON (one report per request, \
            with an Idempotency-Key header). Each report carries its id as the idempotency key, so the \
            receiver can drop duplicates. Progress goes to stderr, the final line to stdout.

            Reports are tracked in a spool inside DIR (DIR/.ship: pending, in-flight, sent, rejected); \
            the report files stay where they are until the retention caps remove sent or rejected ones. \
            Killed at any point, the next run resumes with nothing lost. Connection errors, 429, 502, 503 \
            and 504 are retried with exponential backoff and jitter (Retry-After honoured); a 400 moves \
            the report to DIR/.ship/rejected with the collector's answer beside it; other errors are not \
            retried and the reports stay pending. See docs/shipping.md.

            Examples:
              loophunter ship /var/lib/lh --to http://collector:4318 --format otlp
              loophunter ship /var/lib/lh --to http://collector:4318 --otlp-encoding json
              loophunter ship /var/lib/lh --to https://triage.example/api/reports --format json --token-file ~/.lh-token
              LH_TOKEN=... loophunter ship /tmp/lh --to https://otlp.example --token-env LH_TOKEN --token-header x-api-key

            Exit status: 0 all sent; 1 some reports were rejected (the rest sent); 2 DIR cannot be used, or \
            the collector refuses us (token, URL, TLS certificate); 64 a bad command line (URL, token file); \
            75 some reports are still pending (the collector was unreachable or kept failing): run again; \
            130 interrupted.
            """)

    @Argument(help: ArgumentHelp("The report directory (LOOPHUNTER_DIR of the runs).", valueName: "dir"))
    var directory: String

    @Option(help: ArgumentHelp("The collector's URL: http://HOST:4318 for OTLP, or the JSON endpoint's URL.", valueName: "url"))
    var to: String

    @Option(help: "otlp (OTLP/HTTP logs, see --otlp-encoding) or json (one report per request).")
    var format: PayloadFormat = .otlp

    @OptionGroup var shipping: ShipOptions

    @OptionGroup var retention: RetentionOptions

    @Flag(help: "Print only the final line (and problems), no progress.")
    var quiet = false

    func validate() throws {
        try shipping.checkInputs(url: to, option: "--to", format: format)
    }

    func run() async throws {
        let configuration: ShipConfiguration
        var built = try shipping.configuration(url: to, option: "--to", format: format, retryForDefault: 300,
                                               version: LoopHunterCommand.configuration.version)
        built.retention = retention.policy
        configuration = built

        let spool: Spool
        do {
            spool = try Spool.open(reportDirectory: directory)
            // Reports a sandboxed process appended to its spool file become files to ship.
            SpoolUnpacker.unpack(directory: directory)
        } catch {
            Diagnostics.say(error.description)
            throw ExitStatus.exit(ExitStatus.unusable)
        }
        let printer = quiet ? ShipProgressPrinter(style: .quiet) : ShipProgressPrinter.automatic()
        let shipper = Shipper(configuration: configuration, spool: spool) { event, summary in printer.handle(event, summary) }

        // Ctrl-C or SIGTERM: finish the requests on the wire, leave the rest pending, say so.
        // A second one ends at once (the spool is safe whenever the process dies).
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let count = SignalCount()
            source.setEventHandler {
                if count.increment() > 1 { _exit(ExitStatus.interrupted) }
                Task { await shipper.interrupt() }
            }
            source.resume()
            return source
        }
        let summary = await shipper.run()
        signals.forEach { $0.cancel() }
        printer.finish()

        let outcome = ShipOutcome(summary: summary, spool: spool.root, endpoint: configuration.endpoint.url)
        print(outcome.line)
        if outcome.status != ExitStatus.success { throw ExitStatus.exit(outcome.status) }
    }
}

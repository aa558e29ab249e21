import Dispatch
import Foundation
import LoopHunterShip

/// `run --ship`: ships the run's reports while the program runs, and drains when it has ended.
/// `run` is synchronous (it waits for the program), so the shipper runs in a task of its own and
/// ``finish()`` waits for it.
final class LiveShipping: Sendable {
    private let shipper: Shipper
    private let spool: Spool
    private let endpoint: String
    private let done = DispatchSemaphore(value: 0)
    private let result = SummaryBox()

    /// Opens the spool of `directory` and starts shipping; throws when the directory cannot be used.
    init(configuration: ShipConfiguration, directory: String) throws(SpoolError) {
        spool = try Spool.open(reportDirectory: directory)
        endpoint = configuration.endpoint.url
        let printer = ShipProgressPrinter(style: .quiet)
        shipper = Shipper(configuration: configuration, spool: spool) { event, summary in printer.handle(event, summary) }
        let shipper = self.shipper, done = self.done, result = self.result
        Task.detached {
            result.set(await shipper.run(live: true))
            done.signal()
        }
    }

    /// Sends what is left (within --retry-for), prints the final line on stderr, returns it.
    @discardableResult
    func finish() -> ShipOutcome {
        let shipper = self.shipper
        Task.detached { await shipper.finish() }
        done.wait()
        let outcome = ShipOutcome(summary: result.get() ?? ShipSummary(), spool: spool.root, endpoint: endpoint)
        Diagnostics.say(outcome.line)
        return outcome
    }
}

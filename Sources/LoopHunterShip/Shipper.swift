import Foundation
import LoopHunterReport

/// Delivers the reports of one report directory to a collector, at least once.
///
/// A run recovers what dead shippers held, takes new reports into the spool, then has
/// `concurrency` workers claim batches (rename into this shipper's in-flight directory), encode
/// them, post them, and move each report to `sent/` or `rejected/` by the verdict of the
/// ``RetryPolicy``. Nothing is ever removed from `pending/` except by those moves: a report that
/// could not be delivered (the collector unreachable past `retryFor`, a 500, an interruption)
/// goes back to pending for the next run. Live shipping (``run(live:)`` with `live: true`) keeps
/// looking for new reports until ``finish()``, then drains.
public actor Shipper {
    public let configuration: ShipConfiguration
    private let spool: Spool
    private let transport: HTTPTransport
    private let builder: RequestBuilder
    private let onEvent: @Sendable (ShipEvent, ShipSummary) -> Void

    private var summary = ShipSummary()
    private var queue: [ShipRequest] = []
    private var gzip: Bool
    /// No request starts before this (backoff, Retry-After): a struggling collector gets a rest
    /// from every worker, not only the one that was told.
    private var notBefore = ContinuousClock.now
    private var lastProgress = ContinuousClock.now
    private var lastIntake = ContinuousClock.now
    private var held: [SpoolEntry] = []
    private var finishing = false
    private var interrupted = false
    private var finalIntakeDone = false
    private var noticed: Set<String> = []
    /// Pending reports listed oldest first, claimed from `nextCandidate` on.
    private var candidates: [SpoolEntry] = []
    private var nextCandidate = 0

    /// `onEvent` is called on the actor for every event, with the totals so far; keep it short.
    public init(configuration: ShipConfiguration, spool: Spool,
                onEvent: @escaping @Sendable (ShipEvent, ShipSummary) -> Void = { _, _ in }) {
        self.configuration = configuration
        self.spool = spool
        self.onEvent = onEvent
        self.transport = HTTPTransport(endpoint: configuration.endpoint, token: configuration.token,
                                       tokenHeader: configuration.tokenHeader, tls: configuration.tls,
                                       timeoutSeconds: configuration.requestTimeout,
                                       userAgent: "loophunter/\(configuration.version)")
        self.builder = RequestBuilder(format: configuration.format, encoding: configuration.otlpEncoding,
                                      mapper: OTLPLogMapper(hostName: configuration.hostName),
                                      scope: OTLPScope(name: "loophunter", version: configuration.version),
                                      maxRecords: configuration.format == .otlp ? configuration.batchSize : 1,
                                      maxBytes: configuration.maxRequestBytes)
        switch configuration.compression {
        case .gzip: gzip = true
        case .none: gzip = false
        case .auto: gzip = configuration.format == .otlp
        }
    }

    /// Ships until nothing is pending (or, live, until ``finish()`` and then nothing is pending),
    /// or until shipping cannot go on; then gives back what it holds and applies the caps.
    public func run(live: Bool = false) async -> ShipSummary {
        do {
            summary.recovered = try spool.recover()
            try intake()
            summary.evicted += try spool.evict(configuration.retention)
        } catch {
            summary.stop = .collectorUnusable("\(error)")
        }
        summary.queued = spool.counts().pending
        lastProgress = .now
        emit(.started)
        if summary.stop == nil {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, configuration.concurrency) {
                    group.addTask { await self.work(live: live) }
                }
            }
        }
        if interrupted && summary.stop == nil { summary.stop = .interrupted }
        spool.release(held)
        spool.close()
        summary.evicted += (try? spool.evict(configuration.retention)) ?? 0
        let counts = spool.counts()
        summary.pending = counts.pending
        summary.withOtherShippers = counts.inFlight
        await transport.shutdown()
        return summary
    }

    /// Live shipping: the program has ended; send what is there (and what it wrote last), then end.
    public func finish() {
        finishing = true
        try? intake()
    }

    /// Stop as soon as the requests on the wire have settled; everything else stays pending.
    public func interrupt() {
        interrupted = true
    }

    // MARK: - Workers

    private func work(live: Bool) async {
        while let request = await next(live: live) {
            await deliver(request)
        }
    }

    private var stopped: Bool { interrupted || summary.stop != nil }

    /// The next request: a split half first, else a new batch from pending; nil when done.
    private func next(live: Bool) async -> ShipRequest? {
        while !stopped {
            if !queue.isEmpty { return queue.removeFirst() }
            if await claimBatch() { continue }
            if !live { return nil }
            if finishing {
                // One last look after the program ended, for what it wrote as it exited.
                if finalIntakeDone { return nil }
                finalIntakeDone = true
                try? intake()
                continue
            }
            try? await Task.sleep(for: .seconds(configuration.pollInterval))
            if ContinuousClock.now - lastIntake >= .seconds(configuration.pollInterval * 0.9) {
                try? intake()
            }
        }
        return nil
    }

    /// Claims one batch, then reads and encodes it off the actor (so that the workers encode
    /// their batches in parallel, and deliveries go on meanwhile) into `queue`. False when
    /// nothing is pending.
    private func claimBatch() async -> Bool {
        let limit = configuration.format == .otlp ? configuration.batchSize : max(64, configuration.concurrency * 8)
        let entries = claimEntries(limit: limit)
        guard !entries.isEmpty else { return false }
        let prepared = await Self.prepare(entries, reportDirectory: spool.reportDirectory, builder: builder)
        for (entry, reason) in prepared.unusable { setAside(entry, reason: reason) }
        for report in prepared.oversized {
            setAside(report.entry, reason: "\(spool.reportDirectory)/\(report.entry.name): larger than the request size cap "
                     + "(\(configuration.maxRequestBytes) bytes) once encoded; raise --max-request-bytes and move it back to pending/")
        }
        queue.append(contentsOf: prepared.requests)
        return true
    }

    /// Up to `limit` reports claimed from pending, oldest first. The pending directory is listed
    /// once for many batches (not once a batch: listing and dating every pending report is what
    /// a large backlog would otherwise cost per batch); it is listed again when that list is used
    /// up, which also brings in what intake added since.
    private func claimEntries(limit: Int) -> [SpoolEntry] {
        var claimed: [SpoolEntry] = []
        var listed = false
        while claimed.count < limit {
            if nextCandidate >= candidates.count {
                if listed { break }
                candidates = spool.pendingOldestFirst()
                nextCandidate = 0
                listed = true
                if candidates.isEmpty { break }
            }
            let end = min(candidates.count, nextCandidate + limit - claimed.count)
            claimed += spool.claim(candidates[nextCandidate..<end])
            nextCandidate = end
        }
        return claimed
    }

    /// Reads and checks claimed reports and builds their requests. Runs on the global executor,
    /// not on the actor: it touches only the files this shipper claimed.
    @concurrent
    private nonisolated static func prepare(_ entries: [SpoolEntry], reportDirectory: String, builder: RequestBuilder) async
        -> (requests: [ShipRequest], oversized: [LoadedReport], unusable: [(SpoolEntry, String)]) {
        var loaded: [LoadedReport] = []
        var unusable: [(SpoolEntry, String)] = []
        loaded.reserveCapacity(entries.count)
        for entry in entries {
            do {
                loaded.append(try ReportLoader.load(entry, shownAs: reportDirectory + "/" + entry.name))
            } catch {
                unusable.append((entry, error.description))
            }
        }
        let built = builder.build(loaded)
        return (built.requests, built.oversized, unusable)
    }

    private func setAside(_ entry: SpoolEntry, reason: String) {
        spool.markRejected(entry, reason: "set aside by loophunter, not sent: \(reason)\n")
        summary.setAside += 1
        emit(.rejected(name: entry.name, reason: reason))
    }

    private func deliver(_ request: ShipRequest) async {
        var attempt = 0
        while true {
            await waitForTurn()
            if stopped {
                spool.release(request.entries)
                return
            }
            let compressed = gzip
            let outcome = await transport.post(request.body, contentType: request.contentType, headers: request.headers, gzip: compressed)
            summary.requests += 1
            adjustCompression(after: outcome)
            switch configuration.retry.verdict(for: outcome, gzipped: compressed, format: configuration.format,
                                               encoding: configuration.otlpEncoding) {
            case .delivered(let dropped, let message):
                for entry in request.entries { spool.markSent(entry) }
                summary.sent += request.reports.count
                lastProgress = .now
                if dropped > 0 || message != nil {
                    summary.partiallyRejected += dropped
                    emit(.notice("the collector accepted a request but dropped \(dropped) of its \(request.reports.count) records"
                                 + (message.map { ": \(RetryPolicy.excerpt(Data($0.utf8)).dropFirst(2))" } ?? "")))
                }
                emit(.delivered(request.reports.count))
                return
            case .retry(let after, let reason):
                attempt += 1
                let delay = after ?? configuration.retry.backoff(attempt: attempt)
                let waited = ContinuousClock.now - lastProgress
                if waited + .seconds(delay) > .seconds(configuration.retry.retryFor) {
                    let told = after.map { ", and it asked to wait \(Int($0.rounded(.up))) s more" } ?? ""
                    summary.stop = summary.stop ?? .gaveUp("\(reason)\(told); gave up after \(Self.seconds(waited)) without a delivery (--retry-for \(Int(configuration.retry.retryFor)))")
                    spool.release(request.entries)
                    return
                }
                notBefore = max(notBefore, .now + .seconds(delay))
                emit(.waiting(seconds: delay, reason: reason + (after != nil ? " (Retry-After)" : "")))
            case .refused(let reason):
                summary.lastRefusal = reason
                if request.reports.count > 1 {
                    let half = request.reports.count / 2
                    let halves = [Array(request.reports[..<half]), Array(request.reports[half...])]
                    let rebuilt = halves.flatMap { builder.build($0).requests }
                    queue.insert(contentsOf: rebuilt, at: 0)
                    return
                }
                let report = request.reports[0]
                spool.markRejected(report.entry, reason: rejectionText(reason: reason, outcome: outcome))
                summary.rejected += 1
                emit(.rejected(name: report.entry.name, reason: reason))
                return
            case .compressionRefused:
                gzip = false
                note("the collector does not take gzip (415): sending uncompressed from now on")
            case .held(let reason):
                held.append(contentsOf: request.entries)
                summary.held += request.reports.count
                summary.heldReason = reason
                emit(.notice("\(reason): \(request.reports.count) report\(request.reports.count == 1 ? "" : "s") kept pending, "
                             + "not sent again by this run (OTLP retries only 429, 502, 503, 504)"))
                return
            case .collectorUnusable(let reason):
                summary.stop = summary.stop ?? .collectorUnusable(reason)
                spool.release(request.entries)
                return
            }
        }
    }

    /// Waits until `notBefore`, in short steps so that an interruption is seen.
    private func waitForTurn() async {
        while !stopped {
            let now = ContinuousClock.now
            guard now < notBefore else { return }
            try? await Task.sleep(for: min(notBefore - now, .milliseconds(200)))
        }
    }

    /// RFC 7694: `Accept-Encoding` in a response lists the codings the server takes in requests.
    private func adjustCompression(after outcome: TransportOutcome) {
        guard configuration.compression == .auto, case .response(_, let headers, _) = outcome,
              let accepted = headers["accept-encoding"]?.lowercased() else { return }
        let takesGzip = accepted.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("gzip") }
        if takesGzip != gzip {
            gzip = takesGzip
            note(takesGzip ? "the collector takes gzip: compressing requests" : "the collector does not take gzip: sending uncompressed")
        }
    }

    private func rejectionText(reason: String, outcome: TransportOutcome) -> String {
        var text = "rejected by the collector at \(configuration.endpoint.url): \(reason)\n"
        if case .response(let status, let headers, let body) = outcome {
            text += "status: \(status)\nbody:\n"
            text += String(decoding: RetryPolicy.readableBody(body, headers: headers), as: UTF8.self)
            if !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }

    private func intake() throws(SpoolError) {
        lastIntake = .now
        let result = try spool.intake()
        for line in result.ignored { note(line) }
        if result.added > 0 {
            summary.queued += result.added
            emit(.queued(result.added))
        }
    }

    private func note(_ line: String) {
        if noticed.insert(line).inserted { emit(.notice(line)) }
    }

    private func emit(_ event: ShipEvent) {
        onEvent(event, summary)
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(Int(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)) s"
    }
}

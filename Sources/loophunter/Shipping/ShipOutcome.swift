import LoopHunterShip

/// The final line of a shipping run and the exit status it stands for.
struct ShipOutcome {
    let summary: ShipSummary
    let spool: String
    let endpoint: String

    /// `118 sent, 2 rejected (...), 12 still pending: why; what to do` to `URL` in N requests.
    var line: String {
        var parts = ["\(summary.sent) sent"]
        let rejected = summary.rejected + summary.setAside
        if rejected > 0 {
            var detail: [String] = []
            if summary.rejected > 0 { detail.append("\(summary.rejected) by the collector") }
            if summary.setAside > 0 { detail.append("\(summary.setAside) unusable") }
            parts.append("\(rejected) rejected (\(detail.joined(separator: ", ")); reasons in \(spool)/rejected/*.response)")
        } else {
            parts.append("0 rejected")
        }
        var pending = "\(summary.pending) still pending"
        if summary.pending > 0, let why = pendingReason {
            pending += ": \(why); they stay in \(spool)/pending and the next loophunter ship sends them"
        }
        parts.append(pending)
        if summary.withOtherShippers > 0 {
            parts.append("\(summary.withOtherShippers) in flight with another running shipper")
        }
        if summary.partiallyRejected > 0 {
            parts.append("the collector dropped \(summary.partiallyRejected) records it had accepted (partial success)")
        }
        return "shipped to \(endpoint): " + parts.joined(separator: ", ")
            + " (\(summary.requests) request\(summary.requests == 1 ? "" : "s"))"
    }

    private var pendingReason: String? {
        switch summary.stop {
        case .gaveUp(let why), .collectorUnusable(let why): return why
        case .interrupted: return "interrupted"
        case nil: return summary.heldReason.map { "\($0), which OTLP says not to retry" }
        }
    }

    var status: Int32 {
        switch summary.stop {
        case .collectorUnusable: return ExitStatus.unusable
        case .interrupted: return ExitStatus.interrupted
        case .gaveUp, nil: break
        }
        if summary.pending > 0 || summary.held > 0 { return ExitStatus.stillPending }
        if summary.rejected + summary.setAside > 0 { return ExitStatus.filesSkipped }
        return ExitStatus.success
    }
}

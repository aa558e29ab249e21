/// The timeline of a finding: its event-loop history before the breach.
extension SVGTimeline {
    static let layoutColor = "#2f6fdb"
    static let busyColor = "#c77c02"
    static let breachColor = "#d1242f"

    /// Layout calls per iteration as bars and busy time as a line, the last entry (the iteration
    /// of the breach) highlighted; nil without a history. A new per-iteration measurement of the
    /// reports (allocated bytes, say) is one more series here.
    static func history(of f: Finding, id: String) -> SVGTimeline? {
        guard let breach = f.history.last else { return nil }
        let first = f.history[0].iteration
        return SVGTimeline(
            id: id,
            title: "Event-loop history of \(f.object.label) before the \(f.kind)",
            summary: "Layout calls and busy time in the \(f.history.count) iteration\(f.history.count == 1 ? "" : "s") "
                + "\(first == breach.iteration ? "\(first)" : "\(first) to \(breach.iteration)") of thread "
                + "\(f.threads.first ?? "?"); the breach is in iteration \(breach.iteration).",
            xLabel: "iteration",
            series: [
                SVGSeries(name: "layout calls", unit: "", style: .bars, color: layoutColor,
                          points: f.history.map { SVGPoint(x: Double($0.iteration), y: Double($0.layoutCalls)) }),
                SVGSeries(name: "busy time", unit: "µs", style: .line, color: busyColor,
                          points: f.history.map { SVGPoint(x: Double($0.iteration), y: Double($0.busyUs)) }),
            ],
            highlight: SVGHighlight(x: Double(breach.iteration), label: "breach", color: breachColor))
    }
}

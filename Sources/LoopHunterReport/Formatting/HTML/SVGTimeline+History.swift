/// The timeline of a finding: its event-loop history before the breach.
extension SVGTimeline {
    static let layoutColor = "#2f6fdb"
    static let busyColor = "#c77c02"
    static let breachColor = "#d1242f"
    static let widthColor = "#2a8a4a"
    static let heightColor = "#7b4fc9"
    static let allocColor = "#1b7c83"

    /// Layout calls per iteration (or frame) as bars; when the reports carry them (schema 1.2, the
    /// alloc hook family on), the bytes the thread allocated in each as bars in the panel right
    /// under them, so layout work and allocation line up; busy time as a line; the last entry (the
    /// one of the breach) highlighted; and, when the reports carry it, the object's size in each
    /// as lines (its geometry before and after). nil without a history. A new per-iteration
    /// measurement of the reports is one more series here.
    static func history(of f: Finding, id: String) -> SVGTimeline? {
        guard let breach = f.history.last else { return nil }
        let first = f.history[0].iteration
        let unit = f.historyUnit
        var series = [
            SVGSeries(name: "layout calls", unit: "", style: .bars, color: layoutColor,
                      points: f.history.map { SVGPoint(x: Double($0.iteration), y: Double($0.layoutCalls)) }),
        ]
        let allocated = f.history.compactMap { entry in entry.allocBytes.map { (entry.iteration, $0) } }
        if !allocated.isEmpty {
            series.append(SVGSeries(name: "bytes allocated", unit: "", style: .bars, color: allocColor,
                                    points: allocated.map { SVGPoint(x: Double($0.0), y: Double($0.1)) }, format: .bytes))
        }
        series.append(SVGSeries(name: "busy time", unit: "µs", style: .line, color: busyColor,
                                points: f.history.map { SVGPoint(x: Double($0.iteration), y: Double($0.busyUs)) }))
        let sized = f.history.compactMap { entry in entry.objectSize.map { (entry.iteration, $0) } }
        if !sized.isEmpty {
            series.append(SVGSeries(name: "\(f.object.type) width", unit: "px", style: .line, color: widthColor,
                                    points: sized.map { SVGPoint(x: Double($0.0), y: Double($0.1.width)) }))
            series.append(SVGSeries(name: "\(f.object.type) height", unit: "px", style: .line, color: heightColor,
                                    points: sized.map { SVGPoint(x: Double($0.0), y: Double($0.1.height)) }))
        }
        return SVGTimeline(
            id: id,
            title: "History of \(f.object.label) before the \(f.kind.rawValue)",
            summary: (allocated.isEmpty ? "Layout calls and busy time" : "Layout calls, bytes allocated and busy time")
                + " in the \(f.history.count) \(unit)\(f.history.count == 1 ? "" : "s") "
                + "\(first == breach.iteration ? "\(first)" : "\(first) to \(breach.iteration)") of thread "
                + "\(f.threads.first ?? "?")" + (sized.isEmpty ? "" : ", and the size of \(f.object.label) in each")
                + "; the breach is in \(unit) \(breach.iteration).",
            xLabel: unit,
            series: series,
            highlight: SVGHighlight(x: Double(breach.iteration), label: "breach", color: breachColor))
    }

    /// What the timeline shows, for its caption: `Layout calls (bars), bytes allocated (bars) and
    /// busy time (line)`.
    static func caption(of f: Finding) -> String {
        f.history.contains { $0.allocBytes != nil }
            ? "Layout calls (bars), bytes allocated (bars) and busy time (line)"
            : "Layout calls (bars) and busy time (line)"
    }
}

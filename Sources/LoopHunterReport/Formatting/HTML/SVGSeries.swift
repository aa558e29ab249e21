/// A named series of points for an ``SVGTimeline``: drawn in a panel of its own with its own
/// y scale, under the same x axis as the other series of the chart.
struct SVGSeries: Sendable, Equatable {
    /// What is measured, e.g. `layout calls`: the panel's label, the legend, the text alternative.
    let name: String
    /// Appended to values, e.g. `µs`; empty for plain counts.
    let unit: String
    let style: SVGSeriesStyle
    /// A CSS colour (a constant of the formatter, never report text).
    let color: String
    let points: [SVGPoint]
    /// How values are written: numbers (with `unit`), or bytes.
    var format: SVGValueFormat = .number

    /// `290 µs`, `201`, `64.1 MiB`
    func label(_ value: Double) -> String {
        switch format {
        case .bytes:
            return ByteCount(value.isFinite && value > 0 ? UInt64(min(value, 1.8e19)) : 0).description
        case .number:
            let number = SVGTimeline.number(value)
            return unit.isEmpty ? number : "\(number) \(unit)"
        }
    }
}

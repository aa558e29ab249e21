/// How a series is drawn in its panel of an ``SVGTimeline``.
enum SVGSeriesStyle: Sendable, Equatable {
    /// One bar per point: counts per iteration (layout calls, allocations).
    case bars
    /// A line through the points, each point marked: durations and other measurements.
    case line
}

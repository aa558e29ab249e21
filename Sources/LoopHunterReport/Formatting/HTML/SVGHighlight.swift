/// The x value an ``SVGTimeline`` marks in every panel (the iteration of the breach), and what to
/// call it in the legend and the text alternative.
struct SVGHighlight: Sendable, Equatable {
    let x: Double
    let label: String
    /// A CSS colour (a constant of the formatter, never report text).
    let color: String
}

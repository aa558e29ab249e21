/// One data point of a chart series: `x` on the shared axis (an iteration), `y` the value.
struct SVGPoint: Sendable, Equatable {
    let x: Double
    let y: Double
}

/// How an ``SVGSeries`` writes its values (axis labels, tooltips, the text alternative).
enum SVGValueFormat: Sendable, Equatable {
    /// `290`, `12.5`, followed by the series' unit when it has one.
    case number
    /// `64.1 MiB` (``ByteCount``): allocated bytes.
    case bytes
}

/// A timeline as inline SVG: one panel per ``SVGSeries``, stacked, all under one shared x axis
/// (iterations), each with its own y scale (0 and its maximum labelled), a legend on top (in as
/// many rows as it needs), and the
/// ``SVGHighlight`` x (the breach) marked in every panel. A new measurement per iteration is one
/// more series, not new drawing code.
///
/// Accessible: `role="img"` with a `<title>` and a `<desc>` listing every value, and a `<title>`
/// (a tooltip) on every bar and point. Built as strings, every text through
/// ``MarkupText/escape(_:escapingApostrophes:)`` (no SVG-building package is available to this
/// project); numbers are formatted here, so the same chart gives the same bytes on every machine.
struct SVGTimeline: Sendable, Equatable {
    /// Unique in the page: the prefix of the chart's element ids.
    let id: String
    let title: String
    /// The first sentence of the text alternative.
    let summary: String
    /// The x axis title, e.g. `iteration`.
    let xLabel: String
    let series: [SVGSeries]
    let highlight: SVGHighlight?

    static let width = 640.0
    private static let left = 72.0, right = 16.0
    /// The legend's height with one row, and what each further row adds.
    private static let legendHeight = 28.0, legendRowHeight = 18.0
    private static let panelLabel = 18.0, plotHeight = 64.0, panelGap = 10.0
    private static let axisHeight = 40.0
    private static var panelHeight: Double { panelLabel + plotHeight + panelGap }

    var height: Double { legendSpace + Double(series.count) * Self.panelHeight + Self.axisHeight }

    /// The legend's height: one row, or more when its entries do not fit in one.
    private var legendSpace: Double {
        Self.legendHeight + Double(legendLayout.last?.row ?? 0) * Self.legendRowHeight
    }

    /// The `<svg>` element.
    func svg() -> String {
        let n = Self.number
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" role=\"img\""
                + " aria-labelledby=\"\(MarkupText.escape(id))-title \(MarkupText.escape(id))-desc\""
                + " width=\"\(n(Self.width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(Self.width)) \(n(height))\""
                + " font-family=\"system-ui, sans-serif\" font-size=\"11\">",
            "<title id=\"\(MarkupText.escape(id))-title\">\(MarkupText.escape(title))</title>",
            "<desc id=\"\(MarkupText.escape(id))-desc\">\(MarkupText.escape(description))</desc>",
        ]
        out += legend()
        for (index, s) in series.enumerated() {
            out += panel(s, top: legendSpace + Double(index) * Self.panelHeight)
        }
        out += xAxis()
        out.append("</svg>")
        return out.joined(separator: "\n")
    }

    /// The text alternative: the summary, then every value of every series.
    var description: String {
        var sentences = [summary]
        for s in series {
            let values = s.points.map { point in
                "\(Self.number(point.x)): \(s.label(point.y))" + (isHighlighted(point) ? " (\(highlight?.label ?? ""))" : "")
            }
            sentences.append("\(s.name) per \(xLabel): " + values.joined(separator: ", ") + ".")
        }
        return sentences.joined(separator: " ")
    }

    // MARK: Scales

    private var xs: [Double] { series.flatMap { $0.points.map(\.x) } + (highlight.map { [$0.x] } ?? []) }
    private var xMin: Double { xs.min() ?? 0 }
    private var xMax: Double { xs.max() ?? 0 }
    /// One slot per x unit (iterations are whole numbers), at least one.
    private var slot: Double { (Self.width - Self.left - Self.right) / max(1, xMax - xMin + 1) }

    private func center(_ x: Double) -> Double { Self.left + (x - xMin + 0.5) * slot }

    private func isHighlighted(_ point: SVGPoint) -> Bool { highlight?.x == point.x }

    // MARK: Parts

    /// The legend's texts: one per series, then the highlight's.
    private var legendTexts: [String] {
        series.map { $0.unit.isEmpty ? $0.name : "\($0.name) (\($0.unit))" }
            + (highlight.map { ["\($0.label) (\(xLabel) \(Self.number($0.x)))"] } ?? [])
    }

    /// Where each legend entry goes: left to right, on a new row before an entry that would pass
    /// the right edge.
    private var legendLayout: [(x: Double, row: Int)] {
        var places: [(x: Double, row: Int)] = []
        var x = Self.left, row = 0
        for text in legendTexts {
            let width = 16 + Self.textWidth(text)
            if x > Self.left, x + width > Self.width - Self.right {
                x = Self.left
                row += 1
            }
            places.append((x, row))
            x += width + 18
        }
        return places
    }

    private func legend() -> [String] {
        let n = Self.number
        var out: [String] = ["<g class=\"legend\">"]
        let texts = legendTexts, places = legendLayout
        for (index, s) in series.enumerated() {
            let x = places[index].x, y = 14 + Double(places[index].row) * Self.legendRowHeight
            switch s.style {
            case .bars:
                out.append("<rect x=\"\(n(x))\" y=\"\(n(y - 8))\" width=\"10\" height=\"10\" fill=\"\(s.color)\"/>")
            case .line:
                out.append("<line x1=\"\(n(x - 1))\" y1=\"\(n(y - 3))\" x2=\"\(n(x + 11))\" y2=\"\(n(y - 3))\" stroke=\"\(s.color)\" stroke-width=\"2\"/>")
                out.append("<circle cx=\"\(n(x + 5))\" cy=\"\(n(y - 3))\" r=\"2.5\" fill=\"\(s.color)\"/>")
            }
            out.append("<text x=\"\(n(x + 16))\" y=\"\(n(y))\" fill=\"currentColor\">\(MarkupText.escape(texts[index]))</text>")
        }
        if let highlight, let place = places.last {
            let x = place.x, y = 14 + Double(place.row) * Self.legendRowHeight
            out.append("<rect x=\"\(n(x))\" y=\"\(n(y - 8))\" width=\"10\" height=\"10\" fill=\"\(highlight.color)\"/>")
            out.append("<text x=\"\(n(x + 16))\" y=\"\(n(y))\" fill=\"currentColor\">"
                       + MarkupText.escape(texts[texts.count - 1]) + "</text>")
        }
        out.append("</g>")
        return out
    }

    private func panel(_ s: SVGSeries, top: Double) -> [String] {
        let n = Self.number
        let plotTop = top + Self.panelLabel, bottom = plotTop + Self.plotHeight
        let right = Self.width - Self.right
        let peak = s.points.map(\.y).max() ?? 0
        let scale = peak > 0 ? Self.plotHeight / peak : 0
        var out = ["<g class=\"series\">"]
        out.append("<text x=\"\(n(Self.left))\" y=\"\(n(plotTop - 6))\" fill=\"currentColor\" font-weight=\"600\">"
                   + MarkupText.escape(s.unit.isEmpty ? s.name : "\(s.name) (\(s.unit))") + "</text>")
        if let highlight {
            let band = max(6, min(slot, 40))
            out.append("<rect x=\"\(n(center(highlight.x) - band / 2))\" y=\"\(n(plotTop - 2))\" width=\"\(n(band))\""
                       + " height=\"\(n(Self.plotHeight + 2))\" fill=\"\(highlight.color)\" fill-opacity=\"0.12\"/>")
        }
        // Axes, the maximum's grid line, and the two y labels (0 and the maximum).
        out.append("<line x1=\"\(n(Self.left))\" y1=\"\(n(plotTop))\" x2=\"\(n(right))\" y2=\"\(n(plotTop))\""
                   + " stroke=\"currentColor\" stroke-opacity=\"0.25\" stroke-dasharray=\"3 3\"/>")
        out.append("<line x1=\"\(n(Self.left))\" y1=\"\(n(plotTop))\" x2=\"\(n(Self.left))\" y2=\"\(n(bottom))\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>")
        out.append("<line x1=\"\(n(Self.left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>")
        for (value, y) in [(peak, plotTop), (0, bottom)] {
            out.append("<line x1=\"\(n(Self.left - 4))\" y1=\"\(n(y))\" x2=\"\(n(Self.left))\" y2=\"\(n(y))\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>")
            out.append("<text x=\"\(n(Self.left - 7))\" y=\"\(n(y + 4))\" text-anchor=\"end\" fill=\"currentColor\">"
                       + MarkupText.escape(s.label(value)) + "</text>")
        }
        func tooltip(_ point: SVGPoint) -> String {
            var text = "\(xLabel) \(n(point.x)): \(s.label(point.y)) \(s.name)"
            if isHighlighted(point), let highlight { text += " (\(highlight.label))" }
            return "<title>\(MarkupText.escape(text))</title>"
        }
        switch s.style {
        case .bars:
            let width = max(1, min(slot * 0.7, 28))
            for point in s.points {
                let height = point.y * scale
                let fill = isHighlighted(point) ? highlight?.color ?? s.color : s.color
                out.append("<rect x=\"\(n(center(point.x) - width / 2))\" y=\"\(n(bottom - height))\" width=\"\(n(width))\""
                           + " height=\"\(n(height))\" fill=\"\(fill)\">\(tooltip(point))</rect>")
            }
        case .line:
            let coordinates = s.points.map { "\(n(center($0.x))),\(n(bottom - $0.y * scale))" }
            out.append("<polyline points=\"\(coordinates.joined(separator: " "))\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\" stroke-linejoin=\"round\"/>")
            for point in s.points {
                let highlighted = isHighlighted(point)
                let fill = highlighted ? highlight?.color ?? s.color : s.color
                out.append("<circle cx=\"\(n(center(point.x)))\" cy=\"\(n(bottom - point.y * scale))\" r=\"\(n(highlighted ? 4 : 2.5))\""
                           + " fill=\"\(fill)\">\(tooltip(point))</circle>")
            }
        }
        out.append("</g>")
        return out
    }

    /// Ticks and labels under the last panel: the first and last x and the highlighted one.
    private func xAxis() -> [String] {
        let n = Self.number
        let axis = legendSpace + Double(series.count) * Self.panelHeight - Self.panelGap
        var labelled: [Double] = []
        for x in [xMin, highlight?.x, xMax].compactMap({ $0 }) where !labelled.contains(x) { labelled.append(x) }
        var out = ["<g class=\"x-axis\">"]
        var lastRight = -Double.infinity
        for x in labelled {
            let label = n(x), width = Self.textWidth(label)
            // Labels that would overlap the previous one keep their tick only.
            let fits = center(x) - width / 2 > lastRight + 4
            out.append("<line x1=\"\(n(center(x)))\" y1=\"\(n(axis))\" x2=\"\(n(center(x)))\" y2=\"\(n(axis + 4))\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>")
            if fits {
                let bold = highlight?.x == x ? " font-weight=\"600\"" : ""
                out.append("<text x=\"\(n(center(x)))\" y=\"\(n(axis + 15))\" text-anchor=\"middle\" fill=\"currentColor\"\(bold)>\(MarkupText.escape(label))</text>")
                lastRight = center(x) + width / 2
            }
        }
        out.append("<text x=\"\(n((Self.left + Self.width - Self.right) / 2))\" y=\"\(n(axis + 32))\" text-anchor=\"middle\""
                   + " fill=\"currentColor\" fill-opacity=\"0.75\">\(MarkupText.escape(xLabel))</text>")
        out.append("</g>")
        return out
    }

    // MARK: Numbers

    /// `42`, `12.5`, `-3`: at most one decimal, no locale, no exponent, so output is the same
    /// everywhere.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value.magnitude >= 1e15 { return (value < 0 ? "-" : "") + String(UInt64(min(value.magnitude, 1.8e19))) }
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// A rough width of `text` at font size 11, for laying out the legend and x labels.
    private static func textWidth(_ text: String) -> Double { Double(text.count) * 6.2 }
}

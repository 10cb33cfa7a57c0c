/// A line plot rendered as a standalone SVG document, with no dependencies.
///
/// One or more panels stacked vertically share the x axis; each has its own y axis, nice
/// 1-2-5 ticks, a grid and a legend. Long series are thinned to at most four points per
/// pixel column (minimum and maximum kept, so spikes stay visible); NaN values leave gaps;
/// angle panels can break the line at ±180° wrap-arounds. Output size is therefore bounded by
/// the width, not the data: about 4 × width points per series (≈ 50 KB per series at 960 px).
///
/// ```swift
/// // One panel:
/// let plot = SVGPlot(title: "Gyroscope", xLabel: "time (s)", yLabel: "rate (rad/s)", series: [
///     PlotSeries(name: "gx", x: t, y: gx),
///     PlotSeries(name: "gy", x: t, y: gy),
/// ])
/// let svg: String = plot.render()   // write it to a .svg file, open in a browser
///
/// // Roll, pitch and yaw, estimate against truth (degrees, wrap-aware):
/// let attitude = SVGPlot(title: "demo: Fusion vs truth", xLabel: "time (s)", panels: [
///     PlotPanel(title: "roll", yLabel: "°", series: [
///         PlotSeries(name: "estimate", x: t, y: rollEstimate),
///         .truth(x: t, y: rollTruth)], wrapPeriod: 360),
///     PlotPanel(title: "pitch", yLabel: "°", series: [...], wrapPeriod: 360),
///     PlotPanel.comparison(title: "yaw", yLabel: "°", x: t, estimate: yawEst, truth: yawRef, wrapPeriod: 360),
/// ])
/// ```
public struct SVGPlot: Sendable, Equatable {
    public var title: String
    public var xLabel: String
    public var panels: [PlotPanel]
    /// Fixed x range; `nil` = the finite extent of all series.
    public var xRange: ClosedRange<Double>?
    /// Width of the whole image, pixels.
    public var width: Int
    /// Height of each panel's plotting area, pixels.
    public var panelHeight: Int

    public static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// A plot of stacked panels sharing the x axis.
    public init(
        title: String, xLabel: String = "", panels: [PlotPanel], xRange: ClosedRange<Double>? = nil,
        width: Int = 960, panelHeight: Int = 240
    ) {
        self.title = title
        self.xLabel = xLabel
        self.panels = panels
        self.xRange = xRange
        self.width = width
        self.panelHeight = panelHeight
    }

    /// A single-panel plot.
    public init(
        title: String, xLabel: String = "", yLabel: String = "", series: [PlotSeries],
        xRange: ClosedRange<Double>? = nil, yRange: ClosedRange<Double>? = nil, wrapPeriod: Double? = nil,
        width: Int = 960, height: Int = 360
    ) {
        self.init(
            title: title, xLabel: xLabel,
            panels: [PlotPanel(yLabel: yLabel, series: series, yRange: yRange, wrapPeriod: wrapPeriod)],
            xRange: xRange, width: width, panelHeight: height)
    }

    // Layout, pixels.
    private static let marginLeft = 72.0, marginRight = 24.0
    private static let titleHeight = 40.0, panelTitleHeight = 22.0, panelTitleLine = 15.0, panelGap = 14.0, bottomHeight = 52.0
    /// Width of a bold 12 px character, generously: titles are wrapped to fit with it.
    static let titleCharacterWidth = 7.0
    /// Legend geometry: a line sample, then the name at about 7 px a character.
    private static let legendSample = 38.0, legendCharacterWidth = 7.0, legendGap = 10.0

    /// Width of the widest legend box, 0 when no panel has a named series. Legends sit in the
    /// right margin, outside every plot area, so they never cover data.
    private var legendWidth: Double {
        let longest = panels.flatMap(\.series).map(\.name.count).max() ?? 0
        return longest == 0 ? 0 : Double(Swift.min(longest, 40)) * Self.legendCharacterWidth + Self.legendSample + 6
    }

    /// Width of a 12 px character of a y-axis label, generously.
    static let labelCharacterWidth = 6.8

    /// A y-axis label laid out to stay beside its own panel (it is drawn turned, along the
    /// panel's height): one line when it fits, else two broken at a space, and a smaller font
    /// (down to 7 px) for whatever still does not fit. Lines and font size, px.
    static func yLabelLayout(_ label: String, height: Double) -> (lines: [String], size: Double) {
        func width(_ line: String, _ size: Double) -> Double { Double(line.count) * labelCharacterWidth * size / 12 }
        if width(label, 12) <= height { return ([label], 12) }
        var lines = [label]
        let spaces = label.indices.filter { label[$0] == " " }
        if let split = spaces.min(by: {
            abs(label.distance(from: label.startIndex, to: $0) - label.count / 2) < abs(label.distance(from: label.startIndex, to: $1) - label.count / 2)
        }) {
            lines = [String(label[..<split]), String(label[label.index(after: split)...])]
        }
        let longest = lines.map { width($0, 12) }.max() ?? 0
        let size = longest <= height ? 12 : Swift.max(7, 12 * height / longest)
        return (lines, size)
    }

    /// The panel's title broken into lines that fit `width` pixels.
    static func titleLines(_ title: String, width: Double) -> [String] {
        wrap(title, maxCharacters: Swift.max(10, Int(width / titleCharacterWidth)))
    }

    /// Breaks `text` at spaces into lines of at most `maxCharacters` (a longer word stays whole).
    static func wrap(_ text: String, maxCharacters: Int) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= maxCharacters {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines
    }

    /// The complete SVG document.
    public func render() -> String {
        let w = Double(Swift.max(width, 200))
        let h = Double(Swift.max(panelHeight, 60))
        let legend = legendWidth
        let plotLeft = Self.marginLeft
        let plotRight = legend > 0 ? Swift.max(plotLeft + 60, w - legend - Self.legendGap - 8) : w - Self.marginRight
        let n = Swift.max(panels.count, 1)
        let titleLines = panels.map { Self.titleLines($0.title, width: plotRight - plotLeft) }
        let extraTitleLines = titleLines.map { Double(Swift.max($0.count - 1, 0)) }.reduce(0, +)
        let totalHeight = Self.titleHeight + Double(n) * (Self.panelTitleHeight + h) + Double(n - 1) * Self.panelGap
            + extraTitleLines * Self.panelTitleLine + Self.bottomHeight

        let xs = resolvedXRange()
        let xTicks = AxisTicks(covering: xs, targetCount: Swift.max(2, Int((plotRight - plotLeft) / 90)))
        let xSpan = xs.upperBound - xs.lowerBound
        let toPixelX: (Double) -> Double = { plotLeft + ($0 - xs.lowerBound) / xSpan * (plotRight - plotLeft) }

        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(totalHeight))" \
            viewBox="0 0 \(Int(w)) \(Int(totalHeight))" font-family="Helvetica, Arial, sans-serif" font-size="12">

            """
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(SVGFormat.coordinate(w / 2))\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" "
            + "font-weight=\"bold\">\(SVGFormat.escape(title))</text>\n"

        var top = Self.titleHeight
        for (p, panel) in panels.enumerated() {
            top += Self.panelTitleHeight + Double(Swift.max(titleLines[p].count - 1, 0)) * Self.panelTitleLine
            let bottom = top + h
            svg += renderPanel(
                panel, titleLines: titleLines[p], index: p, top: top, bottom: bottom, left: plotLeft, right: plotRight, xRange: xs,
                xTicks: xTicks, toPixelX: toPixelX, showXLabels: p == panels.count - 1)
            top = bottom + Self.panelGap
        }
        if panels.isEmpty {
            svg += "<text x=\"\(SVGFormat.coordinate(w / 2))\" y=\"\(Int(Self.titleHeight + h / 2))\" "
                + "text-anchor=\"middle\" fill=\"#888\">no data</text>\n"
        }
        if !xLabel.isEmpty {
            svg += "<text x=\"\(SVGFormat.coordinate((plotLeft + plotRight) / 2))\" "
                + "y=\"\(SVGFormat.coordinate(totalHeight - 10))\" text-anchor=\"middle\">\(SVGFormat.escape(xLabel))</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// The x extent of all finite points, or `xRange` if set; never empty.
    private func resolvedXRange() -> ClosedRange<Double> {
        if let xRange, xRange.lowerBound.isFinite, xRange.upperBound.isFinite, xRange.upperBound > xRange.lowerBound {
            return xRange
        }
        var lo = Double.infinity, hi = -Double.infinity
        for panel in panels {
            for series in panel.series {
                for (x, y) in zip(series.x, series.y) where x.isFinite && y.isFinite {
                    lo = Swift.min(lo, x)
                    hi = Swift.max(hi, x)
                }
            }
        }
        guard lo.isFinite, hi.isFinite else { return 0...1 }
        guard hi > lo, (hi - lo).isFinite else {
            let ticks = AxisTicks(covering: lo...hi)
            return ticks.lower...ticks.upper
        }
        return lo...hi
    }

    private func resolvedYTicks(_ panel: PlotPanel) -> AxisTicks {
        if let range = panel.yRange, range.lowerBound.isFinite, range.upperBound.isFinite, range.upperBound > range.lowerBound {
            return panel.yTickStep.map { AxisTicks(covering: range, step: $0) } ?? AxisTicks(covering: range, targetCount: 5)
        }
        if let period = panel.wrapPeriod, period > 0, period.isFinite {
            return AxisTicks(covering: (-period / 2)...(period / 2), step: panel.yTickStep ?? period / 4)
        }
        var lo = Double.infinity, hi = -Double.infinity
        for series in panel.series {
            for (x, y) in zip(series.x, series.y) where x.isFinite && y.isFinite {
                lo = Swift.min(lo, y)
                hi = Swift.max(hi, y)
            }
        }
        if !lo.isFinite || !hi.isFinite {
            lo = 0
            hi = 1
        }
        if let step = panel.yTickStep { return AxisTicks(covering: lo...hi, step: step) }
        return AxisTicks(covering: lo...hi, targetCount: 5)
    }

    private func renderPanel(
        _ panel: PlotPanel, titleLines: [String], index: Int, top: Double, bottom: Double, left: Double, right: Double,
        xRange: ClosedRange<Double>, xTicks: AxisTicks, toPixelX: @escaping (Double) -> Double, showXLabels: Bool
    ) -> String {
        let c = SVGFormat.coordinate
        let yTicks = resolvedYTicks(panel)
        let yLow = panel.yRange?.lowerBound ?? yTicks.lower
        let yHigh = panel.yRange?.upperBound ?? yTicks.upper
        let ySpan = yHigh > yLow ? yHigh - yLow : 1
        let toPixelY: (Double) -> Double = { bottom - ($0 - yLow) / ySpan * (bottom - top) }

        var out = "<g>\n"
        for (line, text) in titleLines.enumerated() {
            let y = top - 6 - Double(titleLines.count - 1 - line) * Self.panelTitleLine
            out += "<text x=\"\(c(left))\" y=\"\(c(y))\" font-weight=\"bold\">\(SVGFormat.escape(text))</text>\n"
        }
        out += "<clipPath id=\"panel\(index)\"><rect x=\"\(c(left))\" y=\"\(c(top))\" width=\"\(c(right - left))\" "
            + "height=\"\(c(bottom - top))\"/></clipPath>\n"
        // Grid and tick labels.
        var grid = ""
        for value in xTicks.values where value >= xRange.lowerBound - 1e-9 * abs(xTicks.step) && value <= xRange.upperBound + 1e-9 * abs(xTicks.step) {
            let px = c(toPixelX(value))
            grid += "M\(px) \(c(top))V\(c(bottom))"
            if showXLabels {
                out += "<text x=\"\(px)\" y=\"\(c(bottom + 16))\" text-anchor=\"middle\">\(xTicks.label(for: value))</text>\n"
            }
        }
        for value in yTicks.values where value >= yLow - 1e-9 * ySpan && value <= yHigh + 1e-9 * ySpan {
            let py = c(toPixelY(value))
            grid += "M\(c(left)) \(py)H\(c(right))"
            out += "<text x=\"\(c(left - 6))\" y=\"\(py)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                + "\(yTicks.label(for: value))</text>\n"
        }
        out += "<path d=\"\(grid)\" stroke=\"#e3e3e3\" stroke-width=\"1\" fill=\"none\"/>\n"
        out += "<rect x=\"\(c(left))\" y=\"\(c(top))\" width=\"\(c(right - left))\" height=\"\(c(bottom - top))\" "
            + "fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>\n"
        if !panel.yLabel.isEmpty {
            let middle = (top + bottom) / 2
            let (lines, size) = Self.yLabelLayout(panel.yLabel, height: bottom - top)
            let font = size < 12 ? " font-size=\"\(SVGFormat.fixed(size, decimals: 1))\"" : ""
            for (k, line) in lines.enumerated() {
                // One line at x = 16; two at 10 and 10 + a line's height, left of the tick labels.
                let x = lines.count == 1 ? 16.0 : 10.0 + Double(k) * (size + 2)
                out += "<text x=\"\(c(x))\" y=\"\(c(middle))\" text-anchor=\"middle\"\(font) transform=\"rotate(-90 \(c(x)) \(c(middle)))\">"
                    + "\(SVGFormat.escape(line))</text>\n"
            }
        }
        // Lines.
        out += "<g clip-path=\"url(#panel\(index))\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
        let margin = bottom - top + 100
        let dashes = dashPatterns(panel, ySpan: ySpan)
        for (s, series) in panel.series.enumerated() {
            var builder = PolylineBuilder(
                toPixelX: toPixelX, toPixelY: toPixelY, wrapPeriod: panel.wrapPeriod,
                clampY: (top - margin)...(bottom + margin))
            let d = builder.build(x: series.x, y: series.y)
            guard !d.isEmpty else { continue }
            out += "<path d=\"\(d)\" stroke=\"\(SVGFormat.escape(color(of: series, at: s)))\" "
                + "stroke-width=\"\(SVGFormat.fixed(series.lineWidth, decimals: 1))\"\(dashes[s])/>\n"
        }
        out += "</g>\n"
        out += legend(for: panel, dashes: dashes, top: top, right: right)
        out += "</g>\n"
        return out
    }

    private func color(of series: PlotSeries, at index: Int) -> String {
        series.color ?? Self.palette[index % Self.palette.count]
    }

    private func dash(_ style: PlotSeries.Style) -> String {
        switch style {
        case .solid: return ""
        case .dashed: return " stroke-dasharray=\"6 4\""
        case .dotted: return " stroke-dasharray=\"1.5 3\""
        }
    }

    /// The dash attribute of each series. A solid line that runs on top of an earlier one for
    /// a good part of the plot (two wheels given the same duty) gets a dash pattern of its own,
    /// so the line beneath shows through its gaps and both stay visible.
    func dashPatterns(_ panel: PlotPanel, ySpan: Double) -> [String] {
        let patterns = ["8 5", "2 4", "12 4 2 4"]
        var used = 0
        return panel.series.enumerated().map { s, series in
            guard series.style == .solid,
                  panel.series[..<s].contains(where: { Self.coincide($0, series, tolerance: ySpan * 0.004) })
            else { return dash(series.style) }
            defer { used += 1 }
            return " stroke-dasharray=\"\(patterns[used % patterns.count])\""
        }
    }

    /// True when at least a fifth of the points both series have at the same x lie within
    /// `tolerance` of each other.
    static func coincide(_ a: PlotSeries, _ b: PlotSeries, tolerance: Double) -> Bool {
        let n = Swift.min(a.x.count, a.y.count, b.x.count, b.y.count)
        guard n > 0 else { return false }
        var shared = 0, close = 0
        for i in 0..<n where a.x[i] == b.x[i] && a.y[i].isFinite && b.y[i].isFinite {
            shared += 1
            if abs(a.y[i] - b.y[i]) <= tolerance { close += 1 }
        }
        return shared > 0 && close * 5 >= shared
    }

    private func legend(for panel: PlotPanel, dashes: [String], top: Double, right: Double) -> String {
        let named = panel.series.enumerated().filter { !$0.element.name.isEmpty }
        guard !named.isEmpty else { return "" }
        let c = SVGFormat.coordinate
        let boxWidth = legendWidth
        let boxHeight = Double(named.count) * 16 + 8
        let x = right + Self.legendGap, y = top
        var out = "<g font-size=\"11\">\n<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(boxWidth))\" "
            + "height=\"\(c(boxHeight))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n"
        for (row, (index, series)) in named.enumerated() {
            let ly = y + 12 + Double(row) * 16
            out += "<path d=\"M\(c(x + 8)) \(c(ly))H\(c(x + 32))\" stroke=\"\(SVGFormat.escape(color(of: series, at: index)))\" "
                + "stroke-width=\"2\"\(dashes[index])/>\n"
            out += "<text x=\"\(c(x + 38))\" y=\"\(c(ly))\" dominant-baseline=\"middle\">\(SVGFormat.escape(series.name))</text>\n"
        }
        out += "</g>\n"
        return out
    }
}

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
    private static let titleHeight = 40.0, panelTitleHeight = 22.0, panelGap = 14.0, bottomHeight = 52.0

    /// The complete SVG document.
    public func render() -> String {
        let w = Double(Swift.max(width, 200))
        let h = Double(Swift.max(panelHeight, 60))
        let plotLeft = Self.marginLeft, plotRight = w - Self.marginRight
        let n = Swift.max(panels.count, 1)
        let totalHeight = Self.titleHeight + Double(n) * (Self.panelTitleHeight + h) + Double(n - 1) * Self.panelGap
            + Self.bottomHeight

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
            top += Self.panelTitleHeight
            let bottom = top + h
            svg += renderPanel(
                panel, index: p, top: top, bottom: bottom, left: plotLeft, right: plotRight, xRange: xs,
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
        _ panel: PlotPanel, index: Int, top: Double, bottom: Double, left: Double, right: Double,
        xRange: ClosedRange<Double>, xTicks: AxisTicks, toPixelX: @escaping (Double) -> Double, showXLabels: Bool
    ) -> String {
        let c = SVGFormat.coordinate
        let yTicks = resolvedYTicks(panel)
        let yLow = panel.yRange?.lowerBound ?? yTicks.lower
        let yHigh = panel.yRange?.upperBound ?? yTicks.upper
        let ySpan = yHigh > yLow ? yHigh - yLow : 1
        let toPixelY: (Double) -> Double = { bottom - ($0 - yLow) / ySpan * (bottom - top) }

        var out = "<g>\n"
        if !panel.title.isEmpty {
            out += "<text x=\"\(c(left))\" y=\"\(c(top - 6))\" font-weight=\"bold\">\(SVGFormat.escape(panel.title))</text>\n"
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
            out += "<text x=\"16\" y=\"\(c(middle))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(c(middle)))\">"
                + "\(SVGFormat.escape(panel.yLabel))</text>\n"
        }
        // Lines.
        out += "<g clip-path=\"url(#panel\(index))\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
        let margin = bottom - top + 100
        for (s, series) in panel.series.enumerated() {
            var builder = PolylineBuilder(
                toPixelX: toPixelX, toPixelY: toPixelY, wrapPeriod: panel.wrapPeriod,
                clampY: (top - margin)...(bottom + margin))
            let d = builder.build(x: series.x, y: series.y)
            guard !d.isEmpty else { continue }
            out += "<path d=\"\(d)\" stroke=\"\(SVGFormat.escape(color(of: series, at: s)))\" "
                + "stroke-width=\"\(SVGFormat.fixed(series.lineWidth, decimals: 1))\"\(dash(series.style))/>\n"
        }
        out += "</g>\n"
        out += legend(for: panel, top: top, right: right)
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

    private func legend(for panel: PlotPanel, top: Double, right: Double) -> String {
        let named = panel.series.enumerated().filter { !$0.element.name.isEmpty }
        guard !named.isEmpty else { return "" }
        let c = SVGFormat.coordinate
        let longest = named.map { $0.element.name.count }.max() ?? 0
        let boxWidth = Double(Swift.min(longest, 40)) * 7 + 44
        let boxHeight = Double(named.count) * 16 + 8
        let x = right - boxWidth - 6, y = top + 6
        var out = "<g font-size=\"11\">\n<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(boxWidth))\" "
            + "height=\"\(c(boxHeight))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n"
        for (row, (index, series)) in named.enumerated() {
            let ly = y + 12 + Double(row) * 16
            out += "<path d=\"M\(c(x + 8)) \(c(ly))H\(c(x + 32))\" stroke=\"\(SVGFormat.escape(color(of: series, at: index)))\" "
                + "stroke-width=\"2\"\(dash(series.style))/>\n"
            out += "<text x=\"\(c(x + 38))\" y=\"\(c(ly))\" dominant-baseline=\"middle\">\(SVGFormat.escape(series.name))</text>\n"
        }
        out += "</g>\n"
        return out
    }
}

/// One line on a plot: paired x and y values, a legend name and a style.
///
/// Non-finite values (NaN, ±∞) in either array leave a gap in the line, so missing cells
/// of a trace can be passed as `.nan`.
public struct PlotSeries: Sendable, Equatable {
    /// How the line is drawn.
    public enum Style: Sendable, Equatable {
        case solid
        /// Dashed, conventionally used for ground truth.
        case dashed
        case dotted
    }

    /// Legend text (empty = not in the legend).
    public var name: String
    public var x: [Double]
    public var y: [Double]
    public var style: Style
    /// Any SVG colour (`#1f77b4`, `black`); `nil` picks from the palette by position.
    public var color: String?
    /// Stroke width in pixels.
    public var lineWidth: Double

    /// Pairs `x[i]` with `y[i]`; extra values in the longer array are ignored.
    public init(name: String, x: [Double], y: [Double], style: Style = .solid, color: String? = nil, lineWidth: Double = 1.2) {
        self.name = name
        self.x = x
        self.y = y
        self.style = style
        self.color = color
        self.lineWidth = lineWidth
    }

    /// Ground-truth style: dashed black.
    public static func truth(name: String = "truth", x: [Double], y: [Double]) -> PlotSeries {
        PlotSeries(name: name, x: x, y: y, style: .dashed, color: "#222222", lineWidth: 1.2)
    }
}

/// One panel (axes box) of a plot. Stacked panels share the x axis.
public struct PlotPanel: Sendable, Equatable {
    /// Small title above the panel (e.g. "roll"); empty for none.
    public var title: String
    /// Label of the y axis, with its unit (e.g. "angle (°)").
    public var yLabel: String
    public var series: [PlotSeries]
    /// Fixed y range; `nil` = fit the data (expanded to whole ticks).
    public var yRange: ClosedRange<Double>?
    /// Tick spacing on y; `nil` = automatic 1-2-5 steps.
    public var yTickStep: Double?
    /// Period of an angle (360 for degrees, 2π for radians): a jump of more than half a period
    /// between consecutive points breaks the line instead of drawing a vertical stroke. When set
    /// and `yRange` is `nil`, the range is ±period/2 with ticks at quarter periods.
    public var wrapPeriod: Double?

    public init(
        title: String = "", yLabel: String = "", series: [PlotSeries], yRange: ClosedRange<Double>? = nil,
        yTickStep: Double? = nil, wrapPeriod: Double? = nil
    ) {
        self.title = title
        self.yLabel = yLabel
        self.series = series
        self.yRange = yRange
        self.yTickStep = yTickStep
        self.wrapPeriod = wrapPeriod
    }
}

extension PlotPanel {
    /// An estimate (solid) against the truth (dashed black) on one panel, e.g. roll in degrees.
    ///
    /// ```swift
    /// PlotPanel.comparison(title: "yaw", yLabel: "°", x: t, estimate: yawEst, truth: yawRef, wrapPeriod: 360)
    /// ```
    public static func comparison(
        title: String, yLabel: String, x: [Double], estimate: [Double], truth: [Double],
        estimateName: String = "estimate", truthName: String = "truth", wrapPeriod: Double? = nil
    ) -> PlotPanel {
        PlotPanel(
            title: title, yLabel: yLabel,
            series: [PlotSeries(name: estimateName, x: x, y: estimate), .truth(name: truthName, x: x, y: truth)],
            wrapPeriod: wrapPeriod)
    }
}

/// A heat map rendered as a standalone SVG document: cells of a grid coloured by value on a
/// perceptual (viridis-like) scale, with both axes ticked and labelled and a colour bar with
/// the value's unit. NaN cells are left blank.
///
/// `x` holds the centre of each column, `yEdges` the lower edge of each row plus the upper
/// edge of the last (so rows may stand for bins: throttle 0–0.05, 0.05–0.1, …).
public struct SVGHeatMap: Sendable, Equatable {
    public var title: String
    public var xLabel: String
    public var yLabel: String
    /// Label of the colour bar, with its unit.
    public var valueLabel: String
    public var x: [Double]
    public var yEdges: [Double]
    /// `values[row][column]`.
    public var values: [[Double]]
    /// Fixed colour range; `nil` = the finite extent of the values.
    public var valueRange: ClosedRange<Double>?
    public var width: Int
    public var height: Int

    public init(title: String, xLabel: String, yLabel: String, valueLabel: String, x: [Double], yEdges: [Double],
                values: [[Double]], valueRange: ClosedRange<Double>? = nil, width: Int = 960, height: Int = 320) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.valueLabel = valueLabel
        self.x = x
        self.yEdges = yEdges
        self.values = values
        self.valueRange = valueRange
        self.width = width
        self.height = height
    }

    /// Colour stops of the scale, low to high (dark blue → green → yellow).
    static let stops: [(Double, Double, Double)] = [
        (68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37),
    ]

    /// The scale's colour at `t` (0…1) as `#rrggbb`.
    static func color(_ t: Double) -> String {
        let u = Swift.max(0, Swift.min(1, t)) * Double(stops.count - 1)
        let i = Swift.min(Int(u), stops.count - 2)
        let f = u - Double(i)
        let (a, b) = (stops[i], stops[i + 1])
        func hex(_ v: Double) -> String {
            let n = Int((v).rounded())
            let digits = Array("0123456789abcdef")
            return String(digits[n / 16]) + String(digits[n % 16])
        }
        return "#" + hex(a.0 + (b.0 - a.0) * f) + hex(a.1 + (b.1 - a.1) * f) + hex(a.2 + (b.2 - a.2) * f)
    }

    public func render() -> String {
        let c = SVGFormat.coordinate
        let w = Double(Swift.max(width, 300)), plotHeight = Double(Swift.max(height, 80))
        let left = 72.0, right = w - 110, top = 40.0, bottom = top + plotHeight
        let totalHeight = bottom + 52
        let finite = values.flatMap { $0 }.filter(\.isFinite)
        var range = valueRange ?? ((finite.min() ?? 0)...(finite.max() ?? 1))
        if range.upperBound <= range.lowerBound { range = range.lowerBound...(range.lowerBound + 1) }
        let span = range.upperBound - range.lowerBound
        let halfWidth = x.count > 1 ? (x[1] - x[0]) / 2 : 0.5
        let xs = ((x.first ?? 0) - halfWidth)...((x.last ?? 1) + halfWidth)
        let ys = (yEdges.first ?? 0)...(yEdges.last ?? 1)
        let toX = { (v: Double) in left + (v - xs.lowerBound) / (xs.upperBound - xs.lowerBound) * (right - left) }
        let toY = { (v: Double) in bottom - (v - ys.lowerBound) / Swift.max(ys.upperBound - ys.lowerBound, 1e-12) * plotHeight }

        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(totalHeight))" \
            viewBox="0 0 \(Int(w)) \(Int(totalHeight))" font-family="Helvetica, Arial, sans-serif" font-size="12">

            """
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(c(w / 2))\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">\(SVGFormat.escape(title))</text>\n"
        svg += "<rect x=\"\(c(left))\" y=\"\(c(top))\" width=\"\(c(right - left))\" height=\"\(c(plotHeight))\" fill=\"#f4f4f4\"/>\n"
        // Cells: one rect per finite value, a column's width from its neighbours' midpoints.
        for (row, rowValues) in values.enumerated() where row + 1 < yEdges.count {
            let y0 = toY(yEdges[row + 1]), y1 = toY(yEdges[row])
            for (column, value) in rowValues.enumerated() where value.isFinite && column < x.count {
                let x0 = toX(x[column] - halfWidth), x1 = toX(x[column] + halfWidth)
                svg += "<rect x=\"\(c(x0))\" y=\"\(c(y0))\" width=\"\(c(x1 - x0 + 0.3))\" height=\"\(c(y1 - y0))\" "
                    + "fill=\"\(Self.color((value - range.lowerBound) / span))\"/>\n"
            }
        }
        // Axes, ticks and labels.
        svg += "<rect x=\"\(c(left))\" y=\"\(c(top))\" width=\"\(c(right - left))\" height=\"\(c(plotHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
        let xTicks = AxisTicks(covering: xs, targetCount: Swift.max(2, Int((right - left) / 90)))
        for v in xTicks.values where xs.contains(v) {
            svg += "<line x1=\"\(c(toX(v)))\" y1=\"\(c(bottom))\" x2=\"\(c(toX(v)))\" y2=\"\(c(bottom + 5))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(c(toX(v)))\" y=\"\(c(bottom + 18))\" text-anchor=\"middle\">\(xTicks.label(for: v))</text>\n"
        }
        let yTicks = AxisTicks(covering: ys, targetCount: 5)
        for v in yTicks.values where ys.contains(v) {
            svg += "<line x1=\"\(c(left - 5))\" y1=\"\(c(toY(v)))\" x2=\"\(c(left))\" y2=\"\(c(toY(v)))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(c(left - 8))\" y=\"\(c(toY(v) + 4))\" text-anchor=\"end\">\(yTicks.label(for: v))</text>\n"
        }
        svg += "<text x=\"\(c((left + right) / 2))\" y=\"\(c(totalHeight - 12))\" text-anchor=\"middle\">\(SVGFormat.escape(xLabel))</text>\n"
        svg += "<text transform=\"translate(18 \(c((top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(SVGFormat.escape(yLabel))</text>\n"
        // Colour bar.
        let barLeft = right + 24, barWidth = 16.0, steps = 32
        for i in 0..<steps {
            let y0 = bottom - Double(i + 1) * plotHeight / Double(steps)
            svg += "<rect x=\"\(c(barLeft))\" y=\"\(c(y0))\" width=\"\(c(barWidth))\" height=\"\(c(plotHeight / Double(steps) + 0.3))\" "
                + "fill=\"\(Self.color((Double(i) + 0.5) / Double(steps)))\"/>\n"
        }
        svg += "<rect x=\"\(c(barLeft))\" y=\"\(c(top))\" width=\"\(c(barWidth))\" height=\"\(c(plotHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
        let vTicks = AxisTicks(covering: range, targetCount: 5)
        for v in vTicks.values where range.contains(v) {
            let y = bottom - (v - range.lowerBound) / span * plotHeight
            svg += "<line x1=\"\(c(barLeft + barWidth))\" y1=\"\(c(y))\" x2=\"\(c(barLeft + barWidth + 4))\" y2=\"\(c(y))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(c(barLeft + barWidth + 6))\" y=\"\(c(y + 4))\">\(vTicks.label(for: v))</text>\n"
        }
        svg += "<text transform=\"translate(\(c(w - 10)) \(c((top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(SVGFormat.escape(valueLabel))</text>\n"
        if finite.isEmpty {
            svg += "<text x=\"\(c((left + right) / 2))\" y=\"\(c((top + bottom) / 2))\" text-anchor=\"middle\" fill=\"#888\">no data</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }
}

/// Standalone SVG documents stacked top to bottom into one.
public enum SVGStack {
    /// One document holding `documents` (each as `render()` gives it) one under the other.
    public static func vertical(_ documents: [String]) -> String {
        var body = "", y = 0, width = 0
        for document in documents {
            let (w, h) = (attribute("width", of: document), attribute("height", of: document))
            var inner = document
            if let end = inner.firstRange(of: "?>\n"), inner.hasPrefix("<?xml") { inner = String(inner[end.upperBound...]) }
            inner = inner.replacingFirst("<svg ", with: "<svg x=\"0\" y=\"\(y)\" ")
            body += inner
            y += h
            width = Swift.max(width, w)
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(y)" viewBox="0 0 \(width) \(y)">

            """ + body + "</svg>\n"
    }

    /// The integer value of `name="…"` in the document's first `<svg` tag (0 when absent).
    static func attribute(_ name: String, of document: String) -> Int {
        guard let tag = document.firstRange(of: "<svg "), let start = document[tag.upperBound...].firstRange(of: " \(name)=\"") else { return 0 }
        let digits = document[start.upperBound...].prefix { $0.isNumber }
        return Int(digits) ?? 0
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(r, with: replacement)
        return copy
    }
}

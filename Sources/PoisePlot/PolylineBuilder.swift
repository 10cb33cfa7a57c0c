/// Turns data points into SVG path data in pixel coordinates, keeping at most four points
/// (first, minimum, maximum, last) per pixel column so spikes stay visible while a
/// 200 000-point series becomes a few thousand points. Breaks the line at non-finite values
/// and, for angles, at wrap-around jumps.
struct PolylineBuilder {
    let toPixelX: (Double) -> Double
    let toPixelY: (Double) -> Double
    let wrapPeriod: Double?
    /// Pixel limits beyond which coordinates are clamped (keeps numbers short and finite).
    let clampY: ClosedRange<Double>

    private(set) var path = ""
    private(set) var pointCount = 0
    private var inSubpath = false
    private var needsCommand = false
    // The current pixel column's bucket: indices into the caller's arrays.
    private var column = Int.min
    private var first = -1, minimum = -1, maximum = -1, last = -1
    private var previousY = Double.nan

    init(
        toPixelX: @escaping (Double) -> Double, toPixelY: @escaping (Double) -> Double, wrapPeriod: Double?,
        clampY: ClosedRange<Double>
    ) {
        self.toPixelX = toPixelX
        self.toPixelY = toPixelY
        self.wrapPeriod = wrapPeriod
        self.clampY = clampY
    }

    mutating func build(x: [Double], y: [Double]) -> String {
        let count = Swift.min(x.count, y.count)
        for i in 0..<count {
            let xi = x[i], yi = y[i]
            guard xi.isFinite, yi.isFinite else {
                breakLine(x: x, y: y)
                previousY = .nan
                continue
            }
            if let period = wrapPeriod, previousY.isFinite, abs(yi - previousY) > period / 2 {
                breakLine(x: x, y: y)
            }
            previousY = yi
            let px = toPixelX(xi)
            let c = px.isFinite ? Int(Swift.max(Swift.min(px, 1e9), -1e9).rounded(.down)) : 0
            if c != column || first < 0 {
                flush(x: x, y: y)
                column = c
                first = i
                minimum = i
                maximum = i
                last = i
            } else {
                if yi < y[minimum] { minimum = i }
                if yi > y[maximum] { maximum = i }
                last = i
            }
        }
        breakLine(x: x, y: y)
        return path
    }

    private mutating func breakLine(x: [Double], y: [Double]) {
        flush(x: x, y: y)
        inSubpath = false
        column = Int.min
    }

    private mutating func flush(x: [Double], y: [Double]) {
        guard first >= 0 else { return }
        var indices = [first, minimum, maximum, last]
        indices.sort()
        var previous = -1
        for i in indices where i != previous {
            emit(x: x[i], y: y[i])
            previous = i
        }
        first = -1
    }

    private mutating func emit(x: Double, y: Double) {
        let px = SVGFormat.coordinate(toPixelX(x))
        let py = SVGFormat.coordinate(Swift.min(Swift.max(toPixelY(y), clampY.lowerBound), clampY.upperBound))
        pointCount += 1
        if !inSubpath {
            // A zero-length segment makes an isolated point visible with round caps.
            path += "M\(px) \(py)h0"
            inSubpath = true
            needsCommand = true
        } else if needsCommand {
            path += "L\(px) \(py)"
            needsCommand = false
        } else {
            path += " \(px) \(py)"
        }
    }
}

import Foundation

/// A point of a loop's frequency response, from the limit cycle a relay experiment holds.
///
/// Åström and Hägglund's relay experiment: a relay in place of the controller makes the loop
/// oscillate at the frequency where its phase is −180° (with a lead in the relay, where the
/// plant's phase is −180° less that lead). Rather than the describing-function estimate
/// (Ku = 4d/πa), the point is read from the first harmonics of the recorded plant input and
/// output over whole periods, which is exact for the fundamental whatever the relay's shape.
public struct RelayPoint: Sendable, Equatable, Codable {
    /// Period of the limit cycle, s (Tu).
    public var period: Double
    /// The plant's response at 2π/period: |output| / |input|.
    public var magnitude: Double
    /// Its phase, rad, in (−π, π].
    public var phase: Double
    /// Half the peak-to-peak of the output over the window, in its unit.
    public var outputAmplitude: Double
    /// Half the peak-to-peak of the input over the window (the relay's amplitude).
    public var inputAmplitude: Double
    /// Whole periods analysed.
    public var cycles: Int

    public var frequency: Double { 2 * .pi / period }
    /// The ultimate gain a relay (no lead) would give: the gain at which a P controller puts
    /// the loop on the edge of stability, 1/|G(jωu)|.
    public var ultimateGain: Double { 1 / magnitude }
}

public enum RelayAnalysis {
    /// `x` less its least-squares straight line: a slow drift (a robot rolling away, a stand
    /// turning) is not part of the limit cycle.
    static func detrended(_ x: [Double]) -> [Double] {
        let n = Double(x.count)
        guard x.count > 2 else { return x }
        let meanT = (n - 1) / 2
        let meanX = x.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (i, v) in x.enumerated() {
            let t = Double(i) - meanT
            sxy += t * (v - meanX)
            sxx += t * t
        }
        let slope = sxy / sxx
        return x.enumerated().map { i, v in v - meanX - slope * (Double(i) - meanT) }
    }

    /// The oscillation's period from the autocorrelation of `y` (mean removed): the highest
    /// peak after its first negative lobe, refined by a parabola. Nil when there is none.
    public static func period(_ y: [Double], dt: Double) -> Double? {
        let n = y.count
        guard n >= 16 else { return nil }
        let mean = y.reduce(0, +) / Double(n)
        let z = y.map { $0 - mean }
        let maxLag = n / 2
        var r = [Double](repeating: 0, count: maxLag)
        for k in 0..<maxLag {
            var s = 0.0
            for i in 0..<(n - k) { s += z[i] * z[i + k] }
            r[k] = s / Double(n - k)
        }
        guard r[0] > 0 else { return nil }
        // Lobes count from a tenth of r(0): a relay chattering on noise leaves the correlation
        // wobbling about zero at the first lobe's end, and a wobble is not the next lobe.
        let lobeFloor = -0.1 * r[0]
        guard let firstNegative = r.firstIndex(where: { $0 < lobeFloor }) else { return nil }
        var best = -1
        var k = firstNegative
        // The first positive lobe after the negative one: its peak is one period.
        while k < maxLag, r[k] < 0 { k += 1 }
        while k < maxLag, r[k] >= lobeFloor {
            if best < 0 || r[k] > r[best] { best = k }
            k += 1
        }
        guard best > 0, r[best] > 0.2 * r[0] else { return nil }
        var lag = Double(best)
        if best + 1 < maxLag {
            let a = r[best - 1], b = r[best], c = r[best + 1]
            let d = a - 2 * b + c
            if d < 0 { lag += 0.5 * (a - c) / d }
        }
        return lag * dt
    }

    /// The plant's response at the limit cycle's frequency from its input `u` and output `y`
    /// sampled every `dt` s.
    ///
    /// A relay on a real loop does not hold one clean frequency: sensor noise past the
    /// hysteresis turns it over early or late, and the cycle's period wanders by ±20 % about its
    /// mean. A ratio of single harmonics at the autocorrelation's period is then ill-conditioned
    /// (on one seed of the simulated quad stand it read a rate loop at +102° that the band reads
    /// at −176°). So the point is the cross-spectral estimate over the band the cycle occupies,
    /// ΣY·U*/Σ|U|² under a Hann taper, at the band's power-weighted centre frequency: for a
    /// clean cycle the same harmonic ratio, for a wandering one its average weighted by where
    /// the relay drove.
    public static func point(input u: [Double], output y: [Double], dt: Double) -> RelayPoint? {
        let u = detrended(u), y = detrended(y)
        let n = u.count
        // The period from the relay's own switching: the output carries the sensor's noise (a
        // vibrating frame's), the relay's square wave only the limit cycle.
        guard n == y.count, let guess = period(u, dt: dt) ?? period(y, dt: dt) else { return nil }
        let duration = Double(n) * dt
        // Wide enough for the wandering cycle and for the taper's main lobe (±2/duration).
        let centre = 1 / guess
        let halfWidth = max(0.3 * centre, 2 / duration)
        let low = max(centre - halfWidth, 0.5 / duration), high = centre + halfWidth
        let taper = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * (Double($0) + 0.5) / Double(n)) }
        let uw = zip(u, taper).map(*), yw = zip(y, taper).map(*)
        var power = 0.0, weightedFrequency = 0.0, crossRe = 0.0, crossIm = 0.0
        for step in 0..<Self.bandPoints {
            let f = low + (high - low) * Double(step) / Double(Self.bandPoints - 1)
            let U = harmonic(uw, w: 2 * Double.pi * f, dt: dt), Y = harmonic(yw, w: 2 * Double.pi * f, dt: dt)
            let p = U.re * U.re + U.im * U.im
            power += p
            weightedFrequency += f * p
            // Y·U*
            crossRe += Y.re * U.re + Y.im * U.im
            crossIm += Y.im * U.re - Y.re * U.im
        }
        guard power > 0 else { return nil }
        let period = power / weightedFrequency
        let perPeriod = period / dt
        let cycles = Int(duration / period)
        // A loop's limit cycle spans many ticks; one of a few ticks is vibration (or its alias)
        // the relay is chattering on, and a point read there would tune the loop to noise.
        guard cycles >= 4, perPeriod >= 8 else { return nil }
        let re = crossRe / power, im = crossIm / power
        let half = { (v: [Double]) in ((v.max() ?? 0) - (v.min() ?? 0)) / 2 }
        return RelayPoint(period: period, magnitude: (re * re + im * im).squareRoot(), phase: atan2(im, re),
                          outputAmplitude: half(y), inputAmplitude: half(u), cycles: cycles)
    }

    /// Frequencies at which the band is sampled (finer than the window's resolution, so that
    /// a slow cycle of a few periods still has its band resolved).
    static let bandPoints = 64

    /// The first harmonic of `x` at angular frequency `w` over samples `dt` apart.
    static func harmonic(_ x: [Double], w: Double, dt: Double) -> (re: Double, im: Double) {
        var re = 0.0, im = 0.0
        // e^(−iwt) advanced by one rotation a sample (two products instead of two libm calls;
        // the rounding a rotation adds is 1e-16, over thousands of samples still 1e-13).
        let stepRe = cos(w * dt), stepIm = -sin(w * dt)
        var phasorRe = 1.0, phasorIm = 0.0
        for v in x {
            re += v * phasorRe
            im += v * phasorIm
            (phasorRe, phasorIm) = (phasorRe * stepRe - phasorIm * stepIm, phasorRe * stepIm + phasorIm * stepRe)
        }
        return (re, im)
    }
}

import PoiseMath

/// Per-trial accuracy in BROAD's metric: root-mean-square errors in degrees.
public struct TrialResult: Sendable, Equatable {
    /// RMSE of the total rotation error `2·acos(|w_e|)`, degrees.
    public var total: Double
    /// RMSE of the heading error `2·atan(|z_e / w_e|)`, degrees.
    public var heading: Double
    /// RMSE of the inclination error `2·acos(√(w_e² + z_e²))`, degrees.
    public var inclination: Double
    /// Rows that entered the score (inside a movement range and with a reference).
    public var scoredRows: Int
    /// Heading offset removed before scoring (6D), degrees; zero when none was removed.
    public var headingOffset: Double

    public init(total: Double, heading: Double, inclination: Double, scoredRows: Int,
                headingOffset: Double = 0) {
        self.total = total
        self.heading = heading
        self.inclination = inclination
        self.scoredRows = scoredRows
        self.headingOffset = headingOffset
    }
}

/// Accumulates one trial's estimates and scores them the way BROAD does.
///
/// Feed every row with `add(estimate:reference:scored:)`; rows that are not scored or have no
/// reference are ignored. For each scored row the world-frame error `q_e = q_est ⊗ conj(q_ref)`
/// is kept (in Double) so that a 6D score can remove the best constant heading offset.
///
/// Not for the real-time path: it stores one error quaternion per scored row.
public struct BroadScorer: Sendable {
    /// Error quaternions `(w, x, y, z)` of the scored rows.
    public private(set) var errors: [SIMD4<Double>] = []

    public init() {}

    /// Number of rows that will be scored.
    public var scoredRows: Int { errors.count }

    /// Records one row. A row with `scored == false` (outside the movement phase), no
    /// reference (occluded) or an unusable reference is ignored. A non-finite or zero estimate
    /// counts as the worst error (180°): hiding it would flatter the filter.
    public mutating func add(estimate: Quaternion, reference: Quaternion?, scored: Bool) {
        guard scored, let reference else { return }
        let r = Self.normalised(reference.components)
        guard let r else { return }
        guard let e = Self.normalised(estimate.components) else {
            errors.append(SIMD4(0, 1, 0, 0))  // 180° about x: the worst possible error
            return
        }
        errors.append(Self.product(e, SIMD4(r.x, -r.y, -r.z, -r.w)))
    }

    /// The trial's RMSEs. With `removingHeadingOffset` (6D estimates, whose heading is
    /// arbitrary) one constant rotation about world z, the one minimising the heading RMSE, is
    /// applied to every estimate first.
    public func result(removingHeadingOffset: Bool) -> TrialResult {
        guard !errors.isEmpty else {
            return TrialResult(total: .nan, heading: .nan, inclination: .nan, scoredRows: 0)
        }
        let offset = removingHeadingOffset ? bestHeadingOffset() : 0
        let c = (offset / 2).cosine, s = (offset / 2).sine
        var total2 = 0.0, heading2 = 0.0, inclination2 = 0.0
        for q in errors {
            // R_z(offset) ⊗ q_e
            let w = c * q.x - s * q.w
            let z = c * q.w + s * q.x
            let x = c * q.y - s * q.z
            let y = c * q.z + s * q.y
            let n = (w * w + x * x + y * y + z * z).squareRoot()
            let wn = w / n, zn = z / n
            let total = 2 * Swift.min(1, abs(wn)).arcCosine
            let heading = Self.headingError(w: wn, z: zn)
            let inclination = 2 * Swift.min(1, (wn * wn + zn * zn).squareRoot()).arcCosine
            total2 += total * total
            heading2 += heading * heading
            inclination2 += inclination * inclination
        }
        let n = Double(errors.count)
        let degrees = 180 / Double.pi
        return TrialResult(total: (total2 / n).squareRoot() * degrees,
                           heading: (heading2 / n).squareRoot() * degrees,
                           inclination: (inclination2 / n).squareRoot() * degrees,
                           scoredRows: errors.count,
                           headingOffset: Self.wrapped(offset) * degrees)
    }

    /// The heading offset (radians) minimising the heading RMSE.
    ///
    /// Writing each error as twist-about-z ⊗ swing, a world-z rotation by δ only adds δ to the
    /// twist angle ψ = 2·atan(z/w), so the objective is Σ wrap(ψ + δ)². It is piecewise
    /// quadratic on the circle: a coarse scan finds the right basin (robust where the circular
    /// mean is not, e.g. bimodal errors), golden-section search refines it.
    public func bestHeadingOffset() -> Double {
        guard !errors.isEmpty else { return 0 }
        var twists = [Double]()
        twists.reserveCapacity(errors.count)
        for q in errors {
            twists.append(q.x == 0 ? Double.pi : 2 * (q.w / q.x).arcTangent)
        }
        func cost(_ delta: Double) -> Double {
            var sum = 0.0
            for psi in twists {
                let e = Self.wrapped(psi + delta)
                sum += e * e
            }
            return sum
        }
        // Candidate 1: minus the circular mean of the twists.
        var sx = 0.0, sy = 0.0
        for psi in twists { sx += psi.cosine; sy += psi.sine }
        var best = -Self.atan2(sy, sx)
        var bestCost = cost(best)
        // Coarse scan, 1° steps.
        let steps = 360
        for i in 0..<steps {
            let delta = -Double.pi + 2 * Double.pi * Double(i) / Double(steps)
            let c = cost(delta)
            if c < bestCost { bestCost = c; best = delta }
        }
        // Golden-section refinement within ±1.5° of the best candidate.
        var a = best - 1.5 * Double.pi / 180, b = best + 1.5 * Double.pi / 180
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = b - ratio * (b - a), x2 = a + ratio * (b - a)
        var f1 = cost(x1), f2 = cost(x2)
        for _ in 0..<60 where b - a > 1e-12 {
            if f1 < f2 {
                b = x2; x2 = x1; f2 = f1
                x1 = b - ratio * (b - a); f1 = cost(x1)
            } else {
                a = x1; x1 = x2; f1 = f2
                x2 = a + ratio * (b - a); f2 = cost(x2)
            }
        }
        let refined = (a + b) / 2
        return cost(refined) <= bestCost ? Self.wrapped(refined) : Self.wrapped(best)
    }

    // MARK: - Helpers (Double precision)

    static func headingError(w: Double, z: Double) -> Double {
        w == 0 ? Double.pi : 2 * abs(z / w).arcTangent
    }

    static func normalised(_ q: SIMD4<Float>) -> SIMD4<Double>? {
        let d = SIMD4<Double>(Double(q.x), Double(q.y), Double(q.z), Double(q.w))
        let n2 = (d * d).sum()
        guard n2.isFinite, n2 > 0 else { return nil }
        return d / n2.squareRoot()
    }

    /// Hamilton product of `(w, x, y, z)` quaternions.
    static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(a.x * b.x - a.y * b.y - a.z * b.z - a.w * b.w,
              a.x * b.y + a.y * b.x + a.z * b.w - a.w * b.z,
              a.x * b.z - a.y * b.w + a.z * b.x + a.w * b.y,
              a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x)
    }

    /// An angle wrapped to (−π, π].
    static func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
        if a > Double.pi { a -= 2 * Double.pi }
        if a <= -Double.pi { a += 2 * Double.pi }
        return a
    }

    static func atan2(_ y: Double, _ x: Double) -> Double { arcTangent2(y, x) }
}

import PoiseMath

/// Online estimate of a hard-iron offset: the field of a magnet or magnetised part fixed to the
/// sensor, constant in the body frame.
///
/// With such an offset `b` the reading is `m = Rᵀh + b`, where `h` is the earth's field in the
/// heading-free earth frame and `R` the body-to-earth rotation. Whenever the body turns, the two
/// separate: `b` is what stays put in the body frame, `h` what stays put in the earth frame. The
/// estimator keeps exponentially forgotten sums over the last few seconds (`timeConstant`) of
/// `R`, `R·m`, `m` and `|m|²` — one observation per `observationInterval`, so the cost does not
/// grow with the sample rate — and once per `solveInterval` solves the least-squares fit of
/// `(h, b)` in closed form.
///
/// The offset in use moves to a fit only when two things hold. The fit must explain the
/// recent readings better than the offset in use by at least `minimumImprovement` times the
/// earth's field it finds (RMS). The attitude the fit uses is itself a few degrees off in
/// fast motion, and a field direction off by ε leaves a misfit of |h|·ε that the fit can
/// partly take for an offset, so offsets below about 0.07·|h| (4°) are not told apart from
/// attitude error: calibrated data keep zero, and an offset is learned to within about that.
/// (Halving the misfit is no test: in a window that has turned little, a fit of a few µT of
/// noise halves a small misfit.) And the fit
/// must explain them well — to within `maximumResidual` times the earth's field it finds —
/// because a body-fixed offset is then the right model: noise, soft iron and a few degrees of
/// inclination error leave some per cent of the field, while a field that varies in the room
/// (a magnet passing by, steel in the floor) or a magnet so close that its field bends with
/// the body's own iron leaves much more, and a constant offset fitted to it would be wrong.
/// Along an axis the body has not turned about, `b` and `h` cannot be told apart; a small
/// ridge term keeps the offset in use there.
///
/// Once an offset has been learned, the fits that follow refine it: each moves it a small step
/// towards itself (an average over about six windows). A single window's fit carries that
/// window's attitude errors — a field direction off by a degree or two moves it by a µT or so
/// — and the first fit is no better than the next; freezing it until a fit beats it by
/// `minimumImprovement` kept that error for good. Whether the offset *moves* is still judged
/// against the last move, so refinement never hides a real change.
@frozen
public struct HardIronEstimator: Sendable {
    @usableFromInline var storedOffset: SIMD3<Float>
    /// The offset subtracted from magnetometer readings, µT (body frame).
    @inlinable public var offset: SIMD3<Float> { storedOffset }
    /// The earth's field (heading-free earth frame, µT) the fit that set the offset found.
    @inlinable public var fittedField: SIMD3<Float> { storedField }
    @usableFromInline var storedField: SIMD3<Float> = .zero
    /// Forgetting window, s.
    public let timeConstant: Float
    /// Least improvement of the RMS misfit that moves the offset, as a fraction of the
    /// earth's field the fit finds.
    public let minimumImprovement: Float
    /// Largest RMS misfit a fit may leave, as a fraction of the earth's field it finds.
    public let maximumResidual: Float

    /// Exponentially forgotten sums of the observations so far.
    @frozen @usableFromInline
    struct Sums: Sendable {
        /// Observation count, the columns of Σ R, Σ R·m, Σ m and Σ |m|².
        @usableFromInline var count: Float = 0
        @usableFromInline var rotation0 = SIMD3<Float>.zero, rotation1 = SIMD3<Float>.zero,
                              rotation2 = SIMD3<Float>.zero
        @usableFromInline var earth = SIMD3<Float>.zero
        @usableFromInline var body = SIMD3<Float>.zero
        @usableFromInline var square: Float = 0

        @inlinable init() {}

        /// Weighs what is there by `keep` and adds the observation of `m` at attitude `r`.
        @inlinable @inline(__always)
        mutating func add(_ m: SIMD3<Float>, _ r: RotationMatrix, keeping keep: Float) {
            count = keep * count + 1
            rotation0 = keep * rotation0 + r.column0
            rotation1 = keep * rotation1 + r.column1
            rotation2 = keep * rotation2 + r.column2
            earth = keep * earth + r.rotate(m)
            body = keep * body + m
            square = keep * square + dot(m, m)
        }

        /// Weighs everything by `f`.
        @inlinable @inline(__always)
        mutating func scale(by f: Float) {
            count *= f
            rotation0 *= f
            rotation1 *= f
            rotation2 *= f
            earth *= f
            body *= f
            square *= f
        }
    }

    @usableFromInline var sums: Sums
    @usableFromInline var sinceObservation: Float
    /// `observationInterval`, or infinity when disabled (one test serves both).
    @usableFromInline let interval: Float
    @usableFromInline var sinceSolve: Float
    /// The offset the last move set (zero before any); later fits refine `offset` from it.
    @usableFromInline var anchor: SIMD3<Float> = .zero
    /// Whether a fit has told the offset in use from the earth's field along the body axes that
    /// are horizontal at the time — the ones the heading depends on (see `verifies`). Until
    /// then an offset present from power-on is indistinguishable from the earth's field: with
    /// the body still, only their sum is measured, and the heading can be off by up to the
    /// angle the offset's horizontal part turns the horizontal field (any angle, once it is the
    /// larger of the two).
    @usableFromInline var storedIsVerified = false
    @inlinable public var isVerified: Bool { storedIsVerified }
    /// Whether the estimator runs (a disabled one leaves the offset at zero and never fits).
    @inlinable public var isEnabled: Bool { interval.isFinite }
    /// The earth's field (heading-free earth frame, µT) the latest fit finds with the offset in
    /// use: what the readings, less the offset, say the field is (zero before any fit).
    @inlinable public var latestField: SIMD3<Float> { storedLatestField }
    @usableFromInline var storedLatestField: SIMD3<Float> = .zero

    /// One observation per this interval, s.
    @inlinable public static var observationInterval: Float { 0.1 }
    /// One fit per this interval, s.
    @inlinable public static var solveInterval: Float { 1 }
    /// Share of the forgotten sums kept when the offset moves.
    @inlinable static var keptAfterMove: Float { 0.25 }
    /// Ridge weight keeping the offset in use along directions the rotations have not
    /// separated (the normal matrix's eigenvalues run from 0, no turn, to 1, all attitudes).
    @inlinable static var ridge: Float { 0.01 }

    /// A disabled estimator keeps the offset at zero.
    @inlinable
    public init(enabled: Bool = true, timeConstant: Float, minimumImprovement: Float,
                maximumResidual: Float) {
        interval = enabled ? Self.observationInterval : .infinity
        storedOffset = .zero
        self.timeConstant = max(timeConstant, Self.observationInterval)
        self.minimumImprovement = minimumImprovement
        self.maximumResidual = maximumResidual
        sums = Sums()
        sinceObservation = Self.observationInterval
        sinceSolve = 0
    }

    /// Takes the raw reading `m` (µT) seen `dt` s after the previous one, with `attitude` body →
    /// heading-free earth frame. Cheap except once per observation interval.
    @inlinable @inline(__always)
    public mutating func observe(_ m: SIMD3<Float>, attitude: Quaternion, dt: Float) {
        sinceObservation += dt
        if sinceObservation >= interval { accumulate(m, attitude: attitude) }
    }

    /// `observe` for a reading with the offset in use already removed; true when the offset
    /// moved (`fittedField` then holds the earth's field the new offset goes with).
    @inlinable @inline(__always)
    public mutating func observe(corrected m: SIMD3<Float>, attitude: Quaternion, dt: Float) -> Bool {
        sinceObservation += dt
        guard sinceObservation >= interval else { return false }
        return accumulate(m + storedOffset, attitude: attitude)
    }

    @inlinable @inline(never) @discardableResult
    mutating func accumulate(_ m: SIMD3<Float>, attitude: Quaternion) -> Bool {
        let elapsed = sinceObservation
        sinceObservation = 0
        // Older observations weigh e^(−age/τ), to first order per step.
        let keep = timeConstant / (timeConstant + elapsed)
        sums.add(m, RotationMatrix(attitude), keeping: keep)
        sinceSolve += elapsed
        // A fit needs half a window of readings: shorter ones have seen too little turning
        // and fit noise (a quarter of the window is kept across a move, see `solve`).
        if sinceSolve >= Self.solveInterval, sums.count * Self.observationInterval >= 0.5 * timeConstant {
            sinceSolve = 0
            return solve(attitude: attitude)
        }
        return false
    }

    /// Fits `(h, b)` to the sums and moves the offset if the fit is much better.
    ///
    /// Setting the derivatives of Σ|m − Rᵀh − b|² to zero gives h = ȳ − R̄b and
    /// (I − R̄ᵀR̄)·b = m̄ − R̄ᵀȳ, with bars for the weighted means of R, R·m and m; the mean
    /// squared misfit of any b is then |m|²‾ − 2b·m̄ + |b|² − |ȳ − R̄b|².
    @inlinable @inline(never)
    mutating func solve(attitude: Quaternion) -> Bool {
        let n = 1 / sums.count
        let c0 = sums.rotation0 * n, c1 = sums.rotation1 * n, c2 = sums.rotation2 * n
        let y = sums.earth * n, mean = sums.body * n, square = sums.square * n
        let k = Self.ridge
        // (I − R̄ᵀR̄ + kI) b = m̄ − R̄ᵀȳ + k·offset; R̄ᵀR̄ holds the columns' dot products.
        let a00 = 1 + k - dot(c0, c0), a11 = 1 + k - dot(c1, c1), a22 = 1 + k - dot(c2, c2)
        let a01 = -dot(c0, c1), a02 = -dot(c0, c2), a12 = -dot(c1, c2)
        let rhs = mean - SIMD3(dot(c0, y), dot(c1, y), dot(c2, y)) + k * offset
        // Symmetric 3×3 solve by the adjugate (the matrix is positive definite: ≥ k).
        let i00 = a11 * a22 - a12 * a12, i01 = a02 * a12 - a01 * a22, i02 = a01 * a12 - a02 * a11
        let i11 = a00 * a22 - a02 * a02, i12 = a01 * a02 - a00 * a12, i22 = a00 * a11 - a01 * a01
        let determinant = a00 * i00 + a01 * i01 + a02 * i02
        guard determinant > 0 else { return false }
        let candidate = SIMD3(i00 * rhs.x + i01 * rhs.y + i02 * rhs.z,
                              i01 * rhs.x + i11 * rhs.y + i12 * rhs.z,
                              i02 * rhs.x + i12 * rhs.y + i22 * rhs.z) / determinant
        let field = Self.field(candidate, c0, c1, c2, y)
        let current = Self.misfit(anchor, field: Self.field(anchor, c0, c1, c2, y), mean, square)
        let fitted = Self.misfit(candidate, field: field, mean, square)
        // Comparisons are false for NaN: a non-finite fit never replaces the offset.
        let fieldSquared = dot(field, field)
        let explained = fitted < maximumResidual * maximumResidual * fieldSquared
        if explained, Self.separation(along: attitude, c0, c1, c2) >= Self.verifyingSeparation {
            storedIsVerified = true
        }
        if current - fitted > minimumImprovement * minimumImprovement * fieldSquared, explained {
            storedOffset = candidate
            anchor = candidate
            storedField = field
            storedLatestField = field
            // Readings from before a change are stale, and a fit across a change lands short of
            // it: keeping a quarter of the window (as if 1.4 time constants had passed) lets
            // fresh readings refine the move, while enough turning stays in the window that
            // the next fits are not noise (a full restart fits noise in the directions a short
            // window has not turned through).
            sums.scale(by: Self.keptAfterMove)
            return true
        }
        // A fit that does not beat the last move still says something about a learned offset:
        // its window's attitude errors differ from the one that moved it. Averaging fits over
        // several windows (`refinementWindows`) refines it; the move test above stays anchored
        // to the last move, so a real change still moves the offset at once.
        if explained, anchor != .zero {
            storedOffset += Self.solveInterval / (Self.refinementWindows * timeConstant) * (candidate - storedOffset)
        }
        storedLatestField = Self.field(storedOffset, c0, c1, c2, y)
        return false
    }

    /// How well the window's rotations separate an offset from the earth's field along the body
    /// directions that are horizontal at `attitude`: the smaller of uᵀ(I − R̄ᵀR̄)u = 1 − |R̄u|²
    /// for u the earth's x and y axes in body coordinates. 0 when the body has not turned (R̄
    /// is a rotation), up to 1 when its attitudes cover every direction; turning back and forth
    /// by ±35° about the vertical gives 0.1. An offset along the vertical leaves the heading of
    /// a level body alone and needs no separating.
    @inlinable @inline(__always)
    static func separation(along attitude: Quaternion, _ c0: SIMD3<Float>, _ c1: SIMD3<Float>,
                           _ c2: SIMD3<Float>) -> Float {
        let r = RotationMatrix(attitude)
        let east = SIMD3(r.column0.x, r.column1.x, r.column2.x)
        let north = SIMD3(r.column0.y, r.column1.y, r.column2.y)
        let meanEast = c0 * east.x + c1 * east.y + c2 * east.z
        let meanNorth = c0 * north.x + c1 * north.y + c2 * north.z
        return 1 - max(dot(meanEast, meanEast), dot(meanNorth, meanNorth))
    }

    /// The separation (see `separation`) from which a well explained fit verifies the offset.
    @inlinable static var verifyingSeparation: Float { 0.1 }

    /// How many forgetting windows a learned offset's refinement averages over.
    @inlinable static var refinementWindows: Float { 6 }

    /// The earth's field that best goes with offset `b`: h = ȳ − R̄b (see `solve`).
    @inlinable @inline(__always)
    static func field(_ b: SIMD3<Float>, _ c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>,
                      _ y: SIMD3<Float>) -> SIMD3<Float> {
        y - (c0 * b.x + c1 * b.y + c2 * b.z)
    }

    /// Mean squared misfit of offset `b` with its best field `h` (see `solve`).
    @inlinable @inline(__always)
    static func misfit(_ b: SIMD3<Float>, field h: SIMD3<Float>, _ mean: SIMD3<Float>,
                       _ square: Float) -> Float {
        square - 2 * dot(b, mean) + dot(b, b) - dot(h, h)
    }
}

import PoiseMath

/// Madgwick's gradient-descent orientation filter (S. Madgwick, internal report 2010;
/// Madgwick, Harrison & Vaidyanathan, ICORR 2011), IMU (6D) and MARG (9D) forms.
///
/// Each sample the gyroscope's quaternion rate is corrected by one normalised gradient-descent
/// step of size `beta` (rad/s) on the misfit between measured and predicted directions:
/// gravity in 6D, gravity and the Earth field in 9D. The field reference `(b_x, 0, b_z)` is
/// re-derived from each measurement, as in the original. The update runs in the original's
/// north-west-up world frame with the published code's exact expressions (they are not
/// rotation-invariant off the unit sphere, so porting them to ENU would change the results);
/// `attitude` is that state turned a quarter turn about the vertical into ENU. The
/// integration is the original's first-order step followed by normalisation.
///
/// Start-up: the attitude is taken from the first valid accelerometer (+ magnetometer)
/// sample, then the gain ramps linearly from `startupGain` down to `beta` over `startupTime`
/// seconds (flag `.initialising`); during the ramp the step is proportional to small
/// gradients rather than normalised, so the large gain cannot chatter. With `startupTime = 0`
/// the update is exactly the published algorithm. The filter does not estimate the gyroscope bias.
public struct MadgwickFilter: ConvergenceTrackedFilter {
    public struct Settings: Sendable {
        /// Gradient-descent step, rad/s: the largest attitude correction rate. Default 0.1.
        public var beta: Float
        /// Step at start-up, rad/s, decaying linearly to `beta`. Default 10.
        public var startupGain: Float
        /// Duration of the start-up ramp, s; 0 disables it. Default 3.
        public var startupTime: Float
        /// Input screening.
        public var screen: SampleScreen

        public static let `default` = Settings(beta: 0.1, startupGain: 10, startupTime: 3, screen: .default)

        @inlinable
        public init(beta: Float = 0.1, startupGain: Float = 10, startupTime: Float = 3,
                    screen: SampleScreen = .default) {
            self.beta = beta
            self.startupGain = startupGain
            self.startupTime = startupTime
            self.screen = screen
        }
    }

    public var settings: Settings
    /// Body-to-ENU: the state turned into ENU once per update, so reading it is a load.
    @inlinable
    public var attitude: Quaternion { output }
    /// `northWestUpToENU ⊗ state`, kept by `update` and `reset`.
    @usableFromInline var output: Quaternion
    public internal(set) var status: FilterStatus
    /// Whether the attitude is established (lost on clipping, a stall, a failsafe).
    @usableFromInline var convergence = AttitudeConvergence()
    /// The attitude in Madgwick's own world frame (north-west-up), where the update runs.
    @usableFromInline var state: Quaternion
    @usableFromInline var aligned: Bool
    /// Time integrated since start-up, s (only counted during the ramp).
    @usableFromInline var elapsed: Float

    public init(settings: Settings = .default) {
        self.settings = settings
        state = .identity
        output = Self.northWestUpToENU
        status = FilterStatus(flags: [.initialising])
        aligned = false
        elapsed = 0
    }

    /// Restarts from `attitude` (normalised), skipping start-up alignment but not the ramp.
    public mutating func reset(attitude: Quaternion) {
        state = Self.northWestUpToENU.conjugate * StartupAlignment.sanitised(attitude, fallback: .identity)
        output = Self.toENU(state)
        aligned = true
        elapsed = 0
        status.flags = []
    }

    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ sample: InertialSample, dt: Float) {
        step(sample, dt: dt)
        output = Self.toENU(state)
    }

    /// `northWestUpToENU ⊗ q` written out: with c = cos 45°, c·(w − z, x − y, x + y, z + w)
    /// (the product's other terms multiply the constant's zero components).
    @inlinable @inline(__always)
    static func toENU(_ q: Quaternion) -> Quaternion {
        let v = q.components
        let c: Float = 0.70710678
        return Quaternion(components: c * (v + SIMD4(-v[3], -v[2], v[1], v[0])))
    }

    /// The update in Madgwick's frame, written as scalar arithmetic on q's components (the
    /// optimiser packs what pays into vectors; hand-written four-lane forms cost more in
    /// shuffles than they saved).
    @inline(__always)
    mutating func step(_ sample: InertialSample, dt: Float) {
        // The squared norm screens the accelerometer and normalises it.
        let a = sample.accelerometer, a2 = dot(a, a)
        let verdict = settings.screen.verdict(sample, dt: dt, accelerationSquared: a2)
        // Skipped samples and start-up are rare and call out: handled out of line, so no
        // integer here lives across a call and the update saves no registers.
        guard verdict.usable, aligned else { return skipOrAlign(sample, verdict: verdict) }
        var flags = FilterFlags(rawValue: 0)
        SampleScreen.book(rejected: verdict.rejected, status: &status, flags: &flags)

        let q = state
        guard verdict.accelerometer else {
            let predicted = advance(q, sample.gyroscope, dt: dt, flags: &flags).predicted
            status.flags = flags
            state = Self.renormalised(predicted, fallback: q)
            return
        }
        // The gradient first, the gain and the gyroscope's step after it, so that fewer values
        // live through the gradient (fewer spills).
        let gravity = a * inlineReciprocalSquareRoot(a2)
        let step: SIMD4<Float>
        if verdict.magnetometer {
            // The verdict passes a magnetometer only when the sample has one.
            let m = sample.magnetometer.unsafelyUnwrapped
            step = Self.gradient(q, gravity: gravity, field: m, inverseSquaredNorm: 1 / dot(m, m))
            flags.insert(.magnetometerUsed)
        } else {
            step = Self.gradient(q, gravity: gravity)
        }
        let (predicted, beta, limit) = advance(q, sample.gyroscope, dt: dt, flags: &flags)
        status.flags = flags
        // The published step is normalised: always `beta` long, however small the error, so
        // a large start-up gain would chatter around the solution. During the ramp, small
        // gradients (|∇f| < 1, errors below ~30°) act in proportion: 1/√max(n², 1) is
        // min(1/√n², 1), with the cap ½ for the doubled gradient. A zero, infinite or NaN n²
        // is not tested here: it makes the corrected state non-finite (0·∞) or leaves it
        // exactly `predicted` (a zero step during the ramp, a finite step whose square
        // overflows), which is the published fallback; `corrected` sorts out the non-finite
        // cases.
        let n2 = Self.squaredLength(step)
        let c = beta * dt * min(inlineReciprocalSquareRoot(n2), limit)
        let v = predicted - c * step
        let v2 = Self.squaredLength(v)
        if Self.isNormalisable(v2) {
            state = Quaternion(components: v * inlineReciprocalSquareRoot(v2))
        } else {
            state = Self.corrected(predicted, by: step, gain: c, squaredNorm: n2, fallback: q)
        }
    }

    /// The gyroscope's step, q + dt·½·q⊗(0, ω), and the gain: during the start-up ramp
    /// (elapsed < startupTime, so startupTime > 0) it falls linearly from `startupGain` to
    /// `beta`, and the normalised step is capped (`limit`).
    @inline(__always)
    mutating func advance(_ q: Quaternion, _ gyroscope: SIMD3<Float>, dt: Float, flags: inout FilterFlags)
        -> (predicted: SIMD4<Float>, beta: Float, limit: Float) {
        var beta = settings.beta
        var limit = Float.infinity
        if elapsed < settings.startupTime {
            beta = settings.startupGain + (beta - settings.startupGain) * (elapsed / settings.startupTime)
            limit = 0.5  // 1 for the gradient at its true length
            flags.insert(.initialising)
            elapsed += dt
        }
        return (Self.integrated(q, gyroscope * dt), beta, limit)
    }

    /// A skipped sample, or start-up alignment from the first usable one.
    @inline(never)
    mutating func skipOrAlign(_ sample: InertialSample, verdict: ScreenVerdict) {
        var flags = FilterFlags(rawValue: 0)
        SampleScreen.book(rejected: verdict.rejected, status: &status, flags: &flags)
        if verdict.usable, let start = StartupAlignment.firstAttitude(ScreenedSample(sample, verdict: verdict),
                                                                     flags: &flags) {
            state = Self.northWestUpToENU.conjugate * start
            aligned = true
        }
        status.flags = flags
    }

    /// The state when the fast path's result was not normalisable, with the published
    /// fallbacks: the gyroscope's step alone when the gradient's n² is zero or not finite,
    /// `fallback` when the result still cannot be normalised.
    @inline(never)
    static func corrected(_ predicted: SIMD4<Float>, by step: SIMD4<Float>, gain c: Float,
                          squaredNorm n2: Float, fallback: Quaternion) -> Quaternion {
        guard n2 > 0, n2.isFinite else { return renormalised(predicted, fallback: fallback) }
        return renormalised(predicted - c * step, fallback: fallback)
    }

    /// |v|² summed in pairs (fewer instructions than lane by lane).
    @inlinable @inline(__always)
    static func squaredLength(_ v: SIMD4<Float>) -> Float {
        let p = v * v, h = p.lowHalf + p.highHalf
        return h.x + h.y
    }

    /// q + ½·q⊗(0, r) for r = ω·dt: the gyroscope's first-order step. The ½ goes into the
    /// sign vectors (exact, so the same bits as halving r), which keeps them multiplications:
    /// ±1 becomes an add, a subtract and a blend.
    @inlinable @inline(__always)
    static func integrated(_ q: Quaternion, _ r: SIMD3<Float>) -> SIMD4<Float> {
        let p = Swizzles(q)
        return q.components + r.x * SIMD4(-0.5, 0.5, 0.5, -0.5) * p.yxwz
            + r.y * SIMD4(-0.5, -0.5, 0.5, 0.5) * p.zwxy + r.z * SIMD4(-0.5, 0.5, -0.5, 0.5) * p.wzyx
    }

    /// q's components in the three orders that quaternion products and Madgwick's Jacobian
    /// rows are made of (one shuffle each), so both are four-lane sums of products instead of
    /// sixteen scalar terms the vectoriser packs with shuffles of its own.
    @usableFromInline
    struct Swizzles {
        /// (x, w, z, y), (y, z, w, x), (z, y, x, w) of q = (w, x, y, z).
        @usableFromInline var yxwz, zwxy, wzyx: SIMD4<Float>

        @inlinable @inline(__always)
        init(_ q: Quaternion) {
            let v = q.components
            yxwz = SIMD4(v[1], v[0], v[3], v[2])
            zwxy = SIMD4(v[2], v[3], v[0], v[1])
            wzyx = SIMD4(v[3], v[2], v[1], v[0])
        }
    }

    /// `v / |v|`, or `fallback` when `v` is degenerate (|v|² not above 1e-6, or not finite).
    @inlinable @inline(__always)
    static func renormalised(_ v: SIMD4<Float>, fallback: Quaternion) -> Quaternion {
        let v2 = squaredLength(v)
        guard isNormalisable(v2) else { return fallback }
        return Quaternion(components: v * inlineReciprocalSquareRoot(v2))
    }

    /// Whether a vector of squared length `v2` can be normalised (neither near zero nor
    /// infinite; false for NaN). One definition for the fast path and the fallback.
    @inlinable @inline(__always)
    static func isNormalisable(_ v2: Float) -> Bool { v2 > 1e-6 && v2 < .infinity }

    /// 2·Jᵀf for gravity, f = R(q)ᵀ(0, 0, 1) − â (â unit, body frame; components w, x, y, z).
    /// The published Jacobian's rows are ±q with components swapped, so Jᵀf is q's
    /// components times the three residuals. Doubled like the 9D gradient (see there).
    @inlinable @inline(__always)
    static func gradient(_ q: Quaternion, gravity a: SIMD3<Float>) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let f1 = 4 * (2 * (x * z - w * y) - a.x)
        let f2 = 4 * (2 * (w * x + y * z) - a.y)
        let f3 = 8 * (1 - 2 * (x * x + y * y) - a.z)
        return SIMD4(x * f2 - y * f1,
                     z * f1 + w * f2 - x * f3,
                     z * f2 - w * f1 - y * f3,
                     x * f1 + y * f2)
    }

    /// 2·Jᵀf for gravity and the original's field objective f_b = ½·R(q)ᵀ(bx, 0, bz) − m̂ in
    /// the north-west-up frame (â, m̂ unit, body frame; components w, x, y, z). The ½ is the
    /// published code's: its reference has half the measured length, which weakens the
    /// magnetometer's pull relative to gravity. Kept because it is the algorithm everybody
    /// benchmarks.
    ///
    /// The field term is homogeneous of degree 2 in (m, bx, bz): it is computed from the raw
    /// reading `m` and scaled by `scale` = 1/|m|² instead of normalising `m` first.
    ///
    /// Doubled because the optimiser turns ±1 lane factors into an add, a subtract and a
    /// blend but keeps ±2 a multiplication; a power of two changes no bits of the normalised
    /// step (the ramp's cap is halved to match).
    @inlinable @inline(__always)
    static func gradient(_ q: Quaternion, gravity a: SIMD3<Float>, field m: SIMD3<Float>,
                         inverseSquaredNorm scale: Float) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        // Half the rotation matrix R(q), entry by entry: the field's world-frame reading, the
        // predicted gravity and the predicted field all come from it.
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        let h11 = 0.5 - yy - zz, h12 = xy - wz, h13 = xz + wy
        let h21 = xy + wz, h22 = 0.5 - xx - zz, h23 = yz - wx
        let h31 = xz - wy, h32 = yz + wx, h33 = 0.5 - xx - yy
        // The reading in the world frame, halved: its horizontal length and vertical part
        // give the reference (bx, 0, bz) at the published half length.
        let ex = h11 * m.x + h12 * m.y + h13 * m.z
        let ey = h21 * m.x + h22 * m.y + h23 * m.z
        let bz = 2 * (h31 * m.x + h32 * m.y + h33 * m.z)
        let bx = 2 * inlineSquareRoot(ex * ex + ey * ey)
        // Gravity residual, twice (the Jacobian's factor 2 folded in).
        let g1 = 2 * (2 * h31 - a.x), g2 = 2 * (2 * h32 - a.y), g3 = 2 * (2 * h33 - a.z)
        // Field residual f_b in raw units, then scaled by 1/|m|² and by bx and bz (the
        // Jacobian's rows are bx·(±q swapped) + bz·(±q swapped)).
        let f1 = bx * h11 + bz * h31 - m.x
        let f2 = bx * h12 + bz * h32 - m.y
        let f3 = bx * h13 + bz * h33 - m.z
        let sx = scale * bx, sz = scale * bz
        let xf1 = sx * f1, xf2 = sx * f2, xf3 = sx * f3
        let a1 = g1 + sz * f1, a2 = g2 + sz * f2, a3 = g3 + sz * f3
        // Jᵀf row by row is
        //   w: x·a2 − y·a1 − z·xf2 + y·xf3
        //   x: z·a1 + w·a2 − 2x·a3 + y·xf2 + z·xf3
        //   y: z·a2 − w·a1 − 2y·(a3 + xf1) + x·xf2 + w·xf3
        //   z: x·a1 + y·a2 − 2z·xf1 − w·xf2 + x·xf3
        // which is four lanes of q's swizzles times per-lane coefficients.
        let p = Swizzles(q)
        let two = SIMD4<Float>(repeating: 2)
        return p.zwxy * (a1 * SIMD4(-2, 2, -2, 2) + xf3 * two) + p.yxwz * (a2 * two)
            + p.wzyx * (xf2 * SIMD4(-2, 2, 2, -2))
            + q.components * (a3 * SIMD4(0, -4, -4, 0) + xf1 * SIMD4(0, 0, -4, -4))
    }

    /// A quarter turn about the vertical: maps Madgwick's north-west-up world to ENU.
    @inlinable
    static var northWestUpToENU: Quaternion {
        Quaternion(w: 0.70710678, x: 0, y: 0, z: 0.70710678)
    }
}

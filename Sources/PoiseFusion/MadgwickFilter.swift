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
public struct MadgwickFilter: AttitudeFilter {
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
    public private(set) var status: FilterStatus
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

    /// The gain this sample: the start-up ramp, then `beta`.
    @inlinable
    var gain: Float {
        let duration = settings.startupTime
        guard duration > 0, elapsed < duration else { return settings.beta }
        return settings.startupGain + (settings.beta - settings.startupGain) * (elapsed / duration)
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

    /// The update in Madgwick's frame.
    @inline(__always)
    mutating func step(_ sample: InertialSample, dt: Float) {
        var flags = FilterFlags(rawValue: 0)
        let input = settings.screen.screen(sample, dt: dt, status: &status, flags: &flags)
        defer { status.flags = flags }
        guard input.usable else { return }

        if !aligned {
            if let start = StartupAlignment.firstAttitude(input, flags: &flags) {
                state = Self.northWestUpToENU.conjugate * start
                aligned = true
            }
            return
        }
        let beta = gain
        let ramping = elapsed < settings.startupTime
        if ramping {
            flags.insert(.initialising)
            elapsed += dt
        }

        let q = state
        // The gyroscope's step, q + dt·½·q⊗(0, ω).
        let predicted = Self.integrated(q.components, input.gyroscope * (0.5 * dt))
        guard let a = input.accelerometer else {
            state = Self.renormalised(predicted, fallback: q)
            return
        }
        let gravity = a * inlineReciprocalSquareRoot(dot(a, a))
        let step: SIMD4<Float>
        if let m = input.magnetometer {
            step = Self.gradient(q, gravity: gravity, field: m)
            flags.insert(.magnetometerUsed)
        } else {
            step = Self.gradient(q, gravity: gravity)
        }
        let n2 = Self.sum(step * step)
        let betaDt = beta * dt
        if !ramping, n2 >= .leastNormalMagnitude, n2 < .infinity {
            state = Self.descended(predicted, step, squaredLength: n2, betaDt: betaDt, fallback: q)
            return
        }
        guard n2 > 0, n2.isFinite else {
            state = Self.renormalised(predicted, fallback: q)
            return
        }
        // The published step is normalised: always `beta` long, however small the error, so
        // a large start-up gain would chatter around the solution. During the ramp, small
        // gradients (|∇f| < 1, errors below ~30°) act in proportion.
        let c = betaDt * inlineReciprocalSquareRoot(ramping ? max(n2, 1) : n2)
        state = Self.renormalised(predicted - c * step, fallback: q)
    }

    /// q + q⊗(0, h) for h = ½·ω·dt: the gyroscope's first-order step, as swapped copies of q
    /// times the rate's components (signs with the rate, which does not wait for q).
    @inlinable @inline(__always)
    static func integrated(_ q: SIMD4<Float>, _ h: SIMD3<Float>) -> SIMD4<Float> {
        let s1 = SIMD4(q[2], q[3], q[0], q[1])   // y z w x
        let s2 = SIMD4(q[1], q[0], q[3], q[2])   // x w z y
        let s3 = SIMD4(q[3], q[2], q[1], q[0])   // z y x w
        return q + (s2 * (SIMD4(-1, 1, 1, -1) * h.x) + s1 * (SIMD4(-1, -1, 1, 1) * h.y)
            + s3 * (SIMD4(-1, 1, -1, 1) * h.z))
    }

    /// `(p − c·s) / |p − c·s|` for `c = betaDt / |s|`: the published step followed by
    /// normalisation, arranged so that little work waits for the square root of |s|².
    ///
    /// With `t = 2c·(p·s)`, |p − c·s|² = 1 + e where `e = E − t` and E = |p|² − 1 + (β·dt)²
    /// (as c²|s|² = (β·dt)²) is known before the square root. 1/√(1+e) is taken as the
    /// series 1 − e/2 + 3e²/8 (see `renormalised`), expanded about E: a polynomial in `c`
    /// whose coefficients are ready before `c` is. The result k·(p − c·s) is regrouped as
    /// a0 + c·a1 (c² = (β·dt)²/|s|² comes from a division alongside the square root), so one
    /// multiply-add waits for `c` instead of a sum of squares, the series and a scaling.
    @inlinable @inline(__always)
    static func descended(_ p: SIMD4<Float>, _ s: SIMD4<Float>, squaredLength n2: Float, betaDt: Float,
                          fallback: Quaternion) -> Quaternion {
        let E = (sum(p * p) - 1) + betaDt * betaDt
        let series = 1 + E * (-0.5 + 0.375 * E)   // 1/√(1+E)
        let slope = -0.5 + 0.75 * E                // its derivative
        let ps2 = 2 * sum(p * s)
        let linear = -slope * ps2
        let quadratic = 0.375 * ps2 * ps2
        let root = inlineSquareRoot(n2)
        let c2 = betaDt * betaDt / n2
        let c = betaDt / root
        // k·(p − c·s) with k = series + linear·c + quadratic·c², grouped so that c, the
        // last value ready, enters once: [k0·p − linear·c²·s] + c·[linear·p − k0·s].
        let k0 = series + quadratic * c2
        let a0 = k0 * p - (linear * c2) * s
        let a1 = linear * p - k0 * s
        let e = E - c * ps2
        if abs(e) < 1e-3 {
            return Quaternion(components: a0 + c * a1)
        }
        return renormalised(p - c * s, fallback: fallback)
    }

    /// Sum of the components, pairwise: two additions in sequence instead of three.
    @inlinable @inline(__always)
    static func sum(_ v: SIMD4<Float>) -> Float {
        let pairs = v.lowHalf + v.highHalf
        return pairs.x + pairs.y
    }

    /// `v / |v|`, or `fallback` when `v` is degenerate. One step moves a unit quaternion by a
    /// tiny amount, so |v|² = 1 + ε with |ε| < 1e-3, where 1 − ε/2 + 3ε²/8 equals 1/√(1+ε)
    /// to within 5/16·|ε|³ < 4e-10, below Float resolution, and takes two multiply-adds
    /// instead of a square root and a division on the update's critical path.
    @inlinable @inline(__always)
    static func renormalised(_ v: SIMD4<Float>, fallback: Quaternion) -> Quaternion {
        let e = (v * v).sum() - 1
        if abs(e) < 1e-3 {
            return Quaternion(components: v * (1 + e * (-0.5 + 0.375 * e)))
        }
        guard e.isFinite, e > -1 + 1e-6 else { return fallback }
        return Quaternion(components: v * inlineReciprocalSquareRoot(e + 1))
    }

    /// Jᵀf for gravity, f = R(q)ᵀ(0, 0, 1) − â (â unit, body frame; components w, x, y, z).
    ///
    /// The published Jacobian's rows are ±q with components swapped; Jᵀf is written as
    /// those swapped copies of q times one scalar each, the published arithmetic regrouped.
    @inlinable @inline(__always)
    static func gradient(_ q: Quaternion, gravity a: SIMD3<Float>) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let g1 = 2 * (x * z - w * y) - a.x
        let g2 = 2 * (w * x + y * z) - a.y
        let g3 = 1 - 2 * (x * x + y * y) - a.z
        return SIMD4(-y, z, -w, x) * (2 * g1) + SIMD4(x, w, z, y) * (2 * g2)
            + SIMD4(0, -2 * x, -2 * y, 0) * (2 * g3)
    }

    /// Jᵀf for gravity and the original's field objective f_b = ½·R(q)ᵀ(bx, 0, bz) − m̂ in
    /// the north-west-up frame (â, m̂ unit, body frame; components w, x, y, z). The ½ is the
    /// published code's: its reference has half the measured length, which weakens the
    /// magnetometer's pull relative to gravity. Kept because it is the algorithm everybody
    /// benchmarks. Each Jacobian row is bx·(±q swapped) + bz·(±q swapped); collected by swap
    /// pattern the sum is six swapped copies of q times one scalar each.
    ///
    /// The field term is homogeneous of degree 2 in (m, bx, bz): it is computed from the raw
    /// reading `m` and scaled by 1/|m|², a division that runs alongside instead of a
    /// normalisation before. And it is linear in bx once bx² is known, which needs no square
    /// root: the terms in bx are formed while the square root runs.
    @inlinable @inline(__always)
    static func gradient(_ q: Quaternion, gravity a: SIMD3<Float>, field m: SIMD3<Float>) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let earth = q.rotate(m)
        let bx2 = earth.x * earth.x + earth.y * earth.y, bz = earth.z
        let scale = 1 / dot(m, m)
        let g1 = 2 * (x * z - w * y) - a.x
        let g2 = 2 * (w * x + y * z) - a.y
        let g3 = 1 - 2 * (x * x + y * y) - a.z
        // f_b = bx·r + u (raw units)
        let r1 = 0.5 - y * y - z * z, r2 = x * y - w * z, r3 = w * y + x * z
        let u1 = bz * (x * z - w * y) - m.x
        let u2 = bz * (w * x + y * z) - m.y
        let u3 = bz * (0.5 - x * x - y * y) - m.z
        // α = 2·f_g + bz·f_b/|m|² = a + bx·c, β = bx·f_b/|m|² = b + bx·su
        let sbz = scale * bz, sbx2 = scale * bx2
        let a1 = 2 * g1 + sbz * u1, a2 = 2 * g2 + sbz * u2, a3 = 2 * g3 + sbz * u3
        let c1 = sbz * r1, c2 = sbz * r2, c3 = sbz * r3
        let b1 = sbx2 * r1, b2 = sbx2 * r2, b3 = sbx2 * r3
        let su1 = scale * u1, su2 = scale * u2, su3 = scale * u3
        let bx = inlineSquareRoot(bx2)
        // The six swapped copies of q (signs folded in).
        let v = q.components
        let s1 = SIMD4(v[2], v[3], v[0], v[1])   // y z w x
        let s2 = SIMD4(v[1], v[0], v[3], v[2])   // x w z y
        let s3 = SIMD4(v[3], v[2], v[1], v[0])   // z y x w
        let s1a = s1 * SIMD4(-1, 1, -1, 1), s3a = s3 * SIMD4(-1, 1, 1, -1)
        let c3a = v * SIMD4(0, -2, -2, 0), c3b = v * SIMD4(0, 0, -2, -2)
        // Jᵀf = s1a·α₁ + s2·α₂ + c3a·α₃ + c3b·β₁ + s3a·β₂ + s1·β₃, split into bx⁰ and bx¹.
        let even = (s1a * a1 + s2 * a2) + (c3a * a3 + c3b * b1) + (s3a * b2 + s1 * b3)
        let odd = (s1a * c1 + s2 * c2) + (c3a * c3 + c3b * su1) + (s3a * su2 + s1 * su3)
        return even + bx * odd
    }

    /// A quarter turn about the vertical: maps Madgwick's north-west-up world to ENU.
    @inlinable
    static var northWestUpToENU: Quaternion {
        Quaternion(w: 0.70710678, x: 0, y: 0, z: 0.70710678)
    }
}

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
    /// Body-to-ENU: the state turned into ENU when read (not on every update).
    public var attitude: Quaternion { Self.northWestUpToENU * state }
    public private(set) var status: FilterStatus
    /// The attitude in Madgwick's own world frame (north-west-up), where the update runs.
    @usableFromInline var state: Quaternion
    @usableFromInline var aligned: Bool
    /// Time integrated since start-up, s (only counted during the ramp).
    @usableFromInline var elapsed: Float

    public init(settings: Settings = .default) {
        self.settings = settings
        state = .identity
        status = FilterStatus(flags: [.initialising])
        aligned = false
        elapsed = 0
    }

    /// Restarts from `attitude` (normalised), skipping start-up alignment but not the ramp.
    public mutating func reset(attitude: Quaternion) {
        state = Self.northWestUpToENU.conjugate * StartupAlignment.sanitised(attitude, fallback: .identity)
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
        var rate = (q * Quaternion(real: 0, imaginary: input.gyroscope)).components * 0.5
        if let a = input.accelerometer {
            var step = Self.gravityGradient(q, a * inlineReciprocalSquareRoot(dot(a, a)))
            if let m = input.magnetometer {
                // Rotate the raw reading while its length is computed: the two run in
                // parallel instead of one after the other.
                let inverseLength = inlineReciprocalSquareRoot(dot(m, m))
                let earth = q.rotate(m)
                let bx = inlineSquareRoot(earth.x * earth.x + earth.y * earth.y) * inverseLength
                step += Self.fieldGradient(q, m * inverseLength, bx: bx, bz: earth.z * inverseLength)
                flags.insert(.magnetometerUsed)
            }
            let n2 = (step * step).sum()
            if n2 > 0, n2.isFinite {
                // The published step is normalised: always `beta` long, however small the
                // error, so a large start-up gain would chatter around the solution. During
                // the ramp, small gradients (|∇f| < 1, errors below ~30°) act in proportion.
                rate -= beta * step * inlineReciprocalSquareRoot(ramping ? max(n2, 1) : n2)
            }
        }
        state = Self.renormalised(q.components + rate * dt, fallback: q)
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

    /// Jᵀf for f = R(q)ᵀ(0, 0, 1) − a (a unit, body frame); components (w, x, y, z).
    @inlinable
    static func gravityGradient(_ q: Quaternion, _ a: SIMD3<Float>) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let f1 = 2 * (x * z - w * y) - a.x
        let f2 = 2 * (w * x + y * z) - a.y
        let f3 = 1 - 2 * (x * x + y * y) - a.z
        return SIMD4(-2 * y, 2 * z, -2 * w, 2 * x) * f1
            + SIMD4(2 * x, 2 * w, 2 * z, 2 * y) * f2
            + SIMD4(0, -4 * x, -4 * y, 0) * f3
    }

    /// Jᵀf for the original's field objective f = ½·R(q)ᵀ(bx, 0, bz) − m in the north-west-up
    /// frame (m unit, body frame; components w, x, y, z). The ½ is the published code's: its
    /// reference has half the measured length, which weakens the magnetometer's pull relative
    /// to gravity. Kept because it is the algorithm everybody benchmarks.
    @inlinable
    static func fieldGradient(_ q: Quaternion, _ m: SIMD3<Float>, bx: Float, bz: Float) -> SIMD4<Float> {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let f1 = bx * (0.5 - y * y - z * z) + bz * (x * z - w * y) - m.x
        let f2 = bx * (x * y - w * z) + bz * (w * x + y * z) - m.y
        let f3 = bx * (w * y + x * z) + bz * (0.5 - x * x - y * y) - m.z
        let row1 = SIMD4(-bz * y, bz * z, -2 * bx * y - bz * w, -2 * bx * z + bz * x)
        let row2 = SIMD4(-bx * z + bz * x, bx * y + bz * w, bx * x + bz * z, -bx * w + bz * y)
        let row3 = SIMD4(bx * y, bx * z - 2 * bz * x, bx * w - 2 * bz * y, bx * x)
        return row1 * f1 + row2 * f2 + row3 * f3
    }

    /// A quarter turn about the vertical: maps Madgwick's north-west-up world to ENU.
    @inlinable
    static var northWestUpToENU: Quaternion {
        Quaternion(w: 0.70710678, x: 0, y: 0, z: 0.70710678)
    }
}

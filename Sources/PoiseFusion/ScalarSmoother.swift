import PoiseMath

/// A one-dimensional Kalman filter (random-walk model) for smoothing one angle or value,
/// such as a tilt or the yaw shown to a user.
///
/// In `angular` mode the value is an angle in radians: the innovation is wrapped to
/// (−π, π] so a measurement just across ±π is a small step, not a full turn, and the output
/// stays in (−π, π].
@frozen
public struct ScalarSmoother: Sendable {
    public struct Settings: Sendable {
        /// Process noise: how fast the true value may wander, unit²/s (rad²/s for angles).
        public var processNoise: Float
        /// Measurement noise variance, unit² (rad² for angles).
        public var measurementNoise: Float
        /// Treat values as angles in radians, wrapping at ±π.
        public var angular: Bool

        public static let `default` = Settings(processNoise: 0.01, measurementNoise: 0.01, angular: false)

        @inlinable
        public init(processNoise: Float = 0.01, measurementNoise: Float = 0.01, angular: Bool = false) {
            self.processNoise = processNoise
            self.measurementNoise = measurementNoise
            self.angular = angular
        }
    }

    public var settings: Settings
    /// The current estimate (in (−π, π] in angular mode); 0 before the first measurement.
    public private(set) var value: Float
    /// Its variance, unit²; infinite before the first measurement.
    public private(set) var variance: Float

    public init(settings: Settings = .default) {
        self.settings = settings
        value = 0
        variance = .infinity
    }

    /// Fuses `measurement` taken `dt` seconds after the previous one and returns the new
    /// estimate. A non-finite measurement only advances time; a bad `dt` counts as zero.
    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    @discardableResult
    public mutating func update(_ measurement: Float, dt: Float) -> Float {
        let step: Float = dt.isFinite && dt > 0 ? dt : 0
        let q = settings.processNoise.isFinite ? max(settings.processNoise, 0) : 0
        let r = settings.measurementNoise.isFinite ? max(settings.measurementNoise, 1e-12) : 1e-12
        guard measurement.isFinite else {
            if variance.isFinite { variance += q * step }
            return value
        }
        guard variance.isFinite else {
            value = settings.angular ? Self.wrapped(measurement) : measurement
            variance = r
            return value
        }
        variance += q * step
        var innovation = measurement - value
        if settings.angular { innovation = Self.wrapped(innovation) }
        let gain = variance / (variance + r)
        value += gain * innovation
        variance *= 1 - gain
        if settings.angular { value = Self.wrapped(value) }
        return value
    }

    /// `angle` wrapped to (−π, π].
    @inlinable
    public static func wrapped(_ angle: Float) -> Float {
        let twoPi = 2 * Float.pi
        let turns = angle / twoPi
        // Beyond ~10⁶ turns a Float angle has no meaningful fraction left.
        guard turns.isFinite, abs(turns) < 1e6 else { return 0 }
        var a = angle
        if a > .pi || a <= -.pi {
            a -= twoPi * Float(Int32(turns))  // whole turns, truncated towards zero
            if a > .pi { a -= twoPi }
            if a <= -.pi { a += twoPi }
        }
        return a
    }
}

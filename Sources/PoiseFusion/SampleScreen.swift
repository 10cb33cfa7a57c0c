import PoiseMath

/// Decides which parts of a sample a filter may use, so that no input can poison its state.
///
/// - a non-finite gyroscope or a `dt` that is not finite, ≤ 0 or above `maximumStep` skips
///   the whole sample (the attitude holds);
/// - an accelerometer that is non-finite, near zero or saturated is dropped (gyro-only step);
/// - a magnetometer that is non-finite or outside a plausible Earth-field range is dropped.
@frozen
public struct SampleScreen: Sendable {
    /// Largest time step integrated, s. Longer gaps are skipped rather than integrated.
    public var maximumStep: Float
    /// Accelerometer norm below this is treated as free fall or a dead sensor, m/s².
    public var minimumAcceleration: Float
    /// Accelerometer norm above this is treated as saturated, m/s² (≈ 15.5 g).
    public var maximumAcceleration: Float
    /// Plausible magnetometer norm range, µT (Earth: 25–65 µT; indoor disturbances more).
    public var minimumMagneticField: Float
    public var maximumMagneticField: Float

    public static let `default` = SampleScreen(
        maximumStep: 0.5, minimumAcceleration: 0.5, maximumAcceleration: 152,
        minimumMagneticField: 5, maximumMagneticField: 500)

    @inlinable
    public init(maximumStep: Float, minimumAcceleration: Float, maximumAcceleration: Float,
                minimumMagneticField: Float, maximumMagneticField: Float) {
        self.maximumStep = maximumStep
        self.minimumAcceleration = minimumAcceleration
        self.maximumAcceleration = maximumAcceleration
        self.minimumMagneticField = minimumMagneticField
        self.maximumMagneticField = maximumMagneticField
    }

    /// The usable parts of `sample`.
    ///
    /// Every test is an ordered comparison, which is false for NaN, so non-finite values fail
    /// it without a separate check; a squared norm overflows to infinity only for absurd
    /// readings, which are rejected as well.
    @inlinable @inline(__always)
    public func screen(_ sample: InertialSample, dt: Float) -> ScreenedSample {
        ScreenedSample(sample, verdict: verdict(sample, dt: dt))
    }

    /// The same decisions as `screen` as four flags, for filters that read the sample's own
    /// vectors: optionals in a returned struct are repacked through integer registers, which
    /// costs the cheapest filters a tenth of their update.
    @inlinable @inline(__always)
    public func verdict(_ sample: InertialSample, dt: Float) -> ScreenVerdict {
        verdict(sample, dt: dt, accelerationSquared: dot(sample.accelerometer, sample.accelerometer))
    }

    /// `verdict` with the accelerometer's squared norm, which a filter normalising it needs
    /// anyway, computed once by the caller.
    @inlinable @inline(__always)
    public func verdict(_ sample: InertialSample, dt: Float, accelerationSquared a2: Float) -> ScreenVerdict {
        let g = sample.gyroscope
        guard dt > 0, dt <= maximumStep, dot(g, g) < .infinity else {
            return ScreenVerdict(usable: false, accelerometer: false, magnetometer: false, rejected: true)
        }
        let accelerometer = a2 >= minimumAcceleration * minimumAcceleration
            && a2 <= maximumAcceleration * maximumAcceleration
        var magnetometer = false
        var rejected = !accelerometer
        if let m = sample.magnetometer {
            let m2 = dot(m, m)
            magnetometer = m2 >= minimumMagneticField * minimumMagneticField
                && m2 <= maximumMagneticField * maximumMagneticField
            rejected = rejected || !magnetometer
        }
        return ScreenVerdict(usable: true, accelerometer: accelerometer, magnetometer: magnetometer,
                             rejected: rejected)
    }
}

/// Which parts of a sample passed `SampleScreen`, as flags.
@frozen
public struct ScreenVerdict: Sendable, Equatable {
    /// False when the whole sample must be skipped.
    public var usable: Bool
    /// The accelerometer reading may be used.
    public var accelerometer: Bool
    /// The magnetometer reading exists and may be used.
    public var magnetometer: Bool
    /// True when anything was dropped (count it in `FilterStatus.rejectedSamples`).
    public var rejected: Bool

    @inlinable
    public init(usable: Bool, accelerometer: Bool, magnetometer: Bool, rejected: Bool) {
        self.usable = usable
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.rejected = rejected
    }
}

extension SampleScreen {
    /// Screens `sample` as above and books a rejection: counted in `status.rejectedSamples`
    /// and flagged `.inputRejected` in `flags` (the flags the filter will publish).
    @inlinable @inline(__always)
    public func screen(_ sample: InertialSample, dt: Float, status: inout FilterStatus,
                       flags: inout FilterFlags) -> ScreenedSample {
        let input = screen(sample, dt: dt)
        Self.book(rejected: input.rejected, status: &status, flags: &flags)
        return input
    }

    /// Books a rejection: counted in `status.rejectedSamples` and flagged `.inputRejected` in
    /// `flags` (the flags the filter will publish).
    @inlinable @inline(__always)
    public static func book(rejected: Bool, status: inout FilterStatus, flags: inout FilterFlags) {
        if rejected {
            status.rejectedSamples &+= 1
            flags.insert(.inputRejected)
        }
    }
}

/// The parts of a sample that passed `SampleScreen`.
@frozen
public struct ScreenedSample: Sendable {
    /// False when the whole sample must be skipped.
    public var usable: Bool
    public var gyroscope: SIMD3<Float>
    public var accelerometer: SIMD3<Float>?
    public var magnetometer: SIMD3<Float>?
    /// True when anything was dropped (count it in `FilterStatus.rejectedSamples`).
    public var rejected: Bool

    /// The parts of `sample` that `verdict` passes.
    @inlinable @inline(__always)
    public init(_ sample: InertialSample, verdict: ScreenVerdict) {
        self.init(usable: verdict.usable, gyroscope: verdict.usable ? sample.gyroscope : .zero,
                  accelerometer: verdict.accelerometer ? sample.accelerometer : nil,
                  magnetometer: verdict.magnetometer ? sample.magnetometer : nil,
                  rejected: verdict.rejected)
    }

    @inlinable
    public init(usable: Bool, gyroscope: SIMD3<Float>, accelerometer: SIMD3<Float>?,
                magnetometer: SIMD3<Float>?, rejected: Bool) {
        self.usable = usable
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.rejected = rejected
    }
}

/// `1 / sqrt(x)` that the optimiser may inline into this module's `update` functions.
///
/// `PoiseMath.reciprocalSquareRoot` must stay a real call to be usable from other modules'
/// `@_noAllocation` code; inside this module a direct call can be inlined safely, which
/// saves a few nanoseconds per normalisation in the hottest filters.
@usableFromInline @inline(__always) @_semantics("no_performance_analysis")
func inlineReciprocalSquareRoot(_ x: Float) -> Float { 1 / x.squareRoot() }

/// `sqrt(x)`, inlinable in this module like `inlineReciprocalSquareRoot`.
@usableFromInline @inline(__always) @_semantics("no_performance_analysis")
func inlineSquareRoot(_ x: Float) -> Float { x.squareRoot() }


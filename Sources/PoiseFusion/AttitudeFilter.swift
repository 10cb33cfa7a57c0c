import PoiseMath

/// The interface every attitude filter implements.
///
/// Replay and the live loop are generic over this protocol, so each filter is used through a
/// specialised call, never an existential. `update` runs in the real-time path: it must not
/// allocate or lock, and implementations mark it `@_noAllocation`.
///
/// 6D or 9D is chosen by the caller: a sample whose `magnetometer` is `nil` is fused without
/// one (replay's `--mag off` drops every magnetometer reading).
public protocol AttitudeFilter: Sendable {
    /// Tunable parameters, with units and documented defaults.
    associatedtype Settings: Sendable

    /// A filter in its start-up state.
    init(settings: Settings)

    /// Fuses one sample taken `dt` seconds after the previous one.
    /// Bad input never poisons the state: see `SampleScreen`.
    mutating func update(_ sample: InertialSample, dt: Float)

    /// The attitude can no longer be trusted (the gyroscope clipped, the loop stalled, the
    /// outputs failed safe): report `notConverged` until the accelerometer has established it
    /// again. The default filter also reads clipping from the sample itself.
    mutating func loseConvergence()

    /// One sample's convergence test, called after `update` (by `updateTrackingConvergence`,
    /// as the tick does), so that the update itself pays nothing for it; a test of one Float
    /// while converged. Filters that track convergence in `update` (the default filter) leave
    /// it empty.
    mutating func trackConvergence(_ sample: InertialSample, dt: Float)

    /// From the next sample on, every gyroscope reading arrives less `offset` (rad/s): the live
    /// loop has measured the bias at start-up and subtracts it from then on. A filter that has
    /// been estimating the bias moves what it holds by the same, so that the change is not a
    /// step in the rate it sees. Filters with no bias state leave it empty.
    mutating func gyroscopeReadingsShift(by offset: SIMD3<Float>)

    /// Body-to-world attitude (world = ENU: x east, y north, z up; heading arbitrary in 6D).
    var attitude: Quaternion { get }

    /// What the filter is doing and what it has estimated besides the attitude.
    var status: FilterStatus { get }
}

/// Diagnostics common to every filter, in the spirit of Fusion's `FusionAhrsFlags`.
@frozen
public struct FilterStatus: Sendable, Equatable {
    public var flags: FilterFlags
    /// Estimated gyroscope bias, rad/s (zero for filters that do not estimate it).
    public var gyroscopeBias: SIMD3<Float>
    /// One-sigma uncertainty of the bias estimate, rad/s (`.infinity` when not estimated).
    public var gyroscopeBiasUncertainty: Float
    /// Samples (or parts of samples) rejected by `SampleScreen` since start.
    public var rejectedSamples: UInt32
    /// Hard-iron offset learned while running and subtracted from magnetometer readings, µT,
    /// body frame (zero for filters that do not learn one).
    public var magnetometerOffset: SIMD3<Float>
    /// Estimated gyroscope scale-factor error per axis, dimensionless: the gyroscope reads
    /// `(1 + s) ⊙ ω + b` (zero for filters that do not estimate it).
    public var gyroscopeScale: SIMD3<Float>
    /// How much older a magnetometer reading is than the gyroscope's, s, as the filter
    /// corrects for it (zero for filters that do not).
    public var magnetometerLatency: Float

    @inlinable
    public init(flags: FilterFlags = [], gyroscopeBias: SIMD3<Float> = .zero,
                gyroscopeBiasUncertainty: Float = .infinity, rejectedSamples: UInt32 = 0,
                magnetometerOffset: SIMD3<Float> = .zero, gyroscopeScale: SIMD3<Float> = .zero,
                magnetometerLatency: Float = 0) {
        self.flags = flags
        self.gyroscopeBias = gyroscopeBias
        self.gyroscopeBiasUncertainty = gyroscopeBiasUncertainty
        self.rejectedSamples = rejectedSamples
        self.magnetometerOffset = magnetometerOffset
        self.gyroscopeScale = gyroscopeScale
        self.magnetometerLatency = magnetometerLatency
    }
}

/// Status flags; each is documented with when it is set.
@frozen
public struct FilterFlags: OptionSet, Sendable, Hashable {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The tilt estimate is still converging after start-up (gain ramp, first samples).
    public static let initialising = FilterFlags(rawValue: 1 << 0)
    /// The accelerometer was not used this sample (linear acceleration too large).
    public static let accelerationRejected = FilterFlags(rawValue: 1 << 1)
    /// The magnetic field is disturbed (norm or dip off the reference); heading not corrected.
    public static let magneticDisturbance = FilterFlags(rawValue: 1 << 2)
    /// The sensor is at rest (gyroscope and accelerometer steady).
    public static let atRest = FilterFlags(rawValue: 1 << 3)
    /// This sample, or part of it, was rejected as invalid (see `SampleScreen`).
    public static let inputRejected = FilterFlags(rawValue: 1 << 4)
    /// The magnetometer was used for heading this sample (9D).
    public static let magnetometerUsed = FilterFlags(rawValue: 1 << 5)
    /// The heading is still averaging its first magnetometer readings (9D start-up); the
    /// tilt may already be good (`initialising` clear), which is all a balancing robot or a
    /// level-holding quad needs to arm.
    public static let headingInitialising = FilterFlags(rawValue: 1 << 6)
    /// The estimate was not propagated for longer than `safety.stall_ms` (the loop stalled);
    /// set by the loop on the tick after the stall, never by a filter.
    /// Computed and inlinable: the loop's checked tick sets it, and a stored static of another
    /// module is reached through a lazily initialised global (a one-time lock).
    @inlinable public static var stale: FilterFlags { FilterFlags(rawValue: 1 << 7) }
    /// The attitude is not established: the gyroscope clipped, the loop stalled or the outputs
    /// failed safe, and the accelerometer has not yet agreed with the estimate long enough at
    /// near rest (see `AttitudeConvergence`). Arming waits for it to clear. Computed, like
    /// `stale`, because the checked tick reads it.
    @inlinable public static var notConverged: FilterFlags { FilterFlags(rawValue: 1 << 8) }
    /// The heading rests on magnetometer readings that have not been checked for an offset
    /// carried with the sensor (a magnet or magnetised part fixed to it): the body has not yet
    /// turned enough since power-on for the hard-iron fit to tell such an offset from the
    /// earth's field, or the heading still disagrees with what the readings less the learned
    /// offset say by more than `magneticHeadingThreshold`, or the disturbance reference was
    /// taken from readings the learned offset changed. With the body still, a magnet present
    /// from power-on is unobservable — the readings are its field plus the earth's — so the
    /// heading may be wrong by any angle up to what the offset turns the horizontal field;
    /// this says so rather than reporting it confidently. Cleared once the board has turned
    /// (about ±35° about the vertical within a few seconds) and the heading agrees.
    @inlinable public static var headingUnverified: FilterFlags { FilterFlags(rawValue: 1 << 9) }
}

extension AttitudeFilter {
    @inlinable
    public mutating func trackConvergence(_ sample: InertialSample, dt: Float) {}

    @inlinable
    public mutating func gyroscopeReadingsShift(by offset: SIMD3<Float>) {}

    /// `update` with what the tick adds for convergence: a clipped gyroscope loses it, and
    /// while it is lost each sample is tested.
    @inlinable @inline(__always)
    public mutating func updateTrackingConvergence(_ sample: InertialSample, dt: Float) {
        if sample.gyroscopeClipped { loseConvergence() }
        update(sample, dt: dt)
        trackConvergence(sample, dt: dt)
    }
}

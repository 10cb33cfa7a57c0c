/// How hard and how long `poise tune` excites each loop, and where it gives up.
public struct TuningOptions: Sendable, Equatable {
    /// Relay amplitude of a rate loop (quad) or the pitch loop (robot), as a fraction of the
    /// loop's configured `output_limit`.
    public var amplitude: Double = 0.05
    /// Relay amplitude of an angle loop, as a fraction of `controller.quad.max_tilt_rate_dps`.
    public var angleAmplitude: Double = 0.25
    /// Relay amplitude of the balancing robot's pitch loop, fraction of its `output_limit`.
    public var balanceAmplitude: Double = 0.3
    /// Seconds a relay runs before its limit cycle is recorded, and then recorded.
    public var settleSeconds: Double = 1
    public var measureSeconds: Double = 3
    /// The experiment stops (every output safe) once the tilt passes this fraction of
    /// `safety.max_tilt_deg` (the supervisor's own limit stays active behind it).
    public var tiltFraction: Double = 0.5
    /// The verification step, degrees.
    public var stepDegrees: Double = 10
    /// Seconds recorded after the step.
    public var stepSeconds: Double = 4

    public init() {}
}

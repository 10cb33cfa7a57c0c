import PoiseMath

/// What `PoiseFilter` keeps to re-establish its attitude after it was lost.
@frozen
public struct PoiseFilterConvergence: Sendable {
    public var check = AttitudeConvergence()
    /// Near-rest samples averaged into the filtered gravity since the attitude was lost.
    public var quietSamples: Float = 0

    @inlinable public init() {}
}

extension PoiseFilter {
    /// Time constant of the re-alignment average, s: after the first near-rest samples (a plain
    /// mean) the filtered gravity follows the newest quarter second, so the gyroscope's drift
    /// over a long wait does not smear it; 0.25 s at 100 Hz–1 kHz averages 25–250 samples.
    @inlinable static var realignmentTimeConstant: Float { 0.25 }

    /// The attitude can no longer be trusted: re-establish it from the accelerometer at the
    /// next near-rest samples (and, in 9D, the heading from the magnetometer readings that
    /// follow, averaged again from the moment the inclination is established; the hard-iron
    /// fit waits meanwhile).
    @inlinable
    public mutating func loseConvergence() {
        convergence.check.lose()
        convergence.quietSamples = 0
        magneticSamples = 0
        // The hard-iron fit's past readings were seen in an earth frame whose heading the
        // clipped gyroscope has since turned by an unknown angle: together with later ones
        // they would fit a false offset.
        hardIron.sums = .init()
        flags.insert(.notConverged)
    }

    /// The inclination update while not converged: re-align, update, check the agreement.
    @inlinable @inline(never)
    mutating func reestablish(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float, flags: inout FilterFlags) {
        realign(a, gyroscope: gyroscope, dt: dt)
        updateInclination(a, gyroscope: gyroscope, dt: dt, flags: &flags)
        checkConvergence(a, gyroscope: gyroscope, dt: dt)
        if !convergence.check.isConverged { flags.insert(.notConverged) }
    }

    /// Before the inclination update, while not converged: on a near-rest sample, the gravity
    /// filtered in I becomes the mean of the near-rest samples since the loss (the newest
    /// 0.25 s once there are more), so the inclination correction turns the estimate to it in
    /// this very sample. What was filtered before (during the tumble, in an I frame the clipped
    /// gyroscope got wrong) is dropped, not averaged away over 3 τ.
    @inlinable @inline(__always)
    mutating func realign(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float) {
        guard !accelerationFilter.isAveraging,
              AttitudeConvergence.isQuiet(accelerometer: a, gyroscope: gyroscope, gravity: gravity) else { return }
        convergence.quietSamples += 1
        let weight = max(1 / convergence.quietSamples, min(dt / Self.realignmentTimeConstant, 1))
        let inertial = gyroscopeAttitude.rotate(a)
        accelerationFilter.output += (inertial - accelerationFilter.output) * weight
        accelerationFilter.rate = .zero
    }

    /// After the inclination update, while not converged: does the accelerometer agree with
    /// the corrected estimate?
    @inlinable @inline(__always)
    mutating func checkConvergence(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float) {
        if convergence.check.observe(accelerometer: a, gyroscope: gyroscope,
                                     up: AttitudeConvergence.bodyUp(earthAttitude), gravity: gravity, dt: dt) {
            // The heading averaged readings seen in a wrong earth frame until now: start its
            // average again from the established inclination.
            magneticSamples = 0
        }
    }
}

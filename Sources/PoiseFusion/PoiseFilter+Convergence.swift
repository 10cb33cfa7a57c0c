import PoiseMath

extension PoiseFilter {
    /// Time constant of the re-alignment average, s: after the first near-rest samples (a plain
    /// mean) the filtered gravity follows the newest quarter second, so the gyroscope's drift
    /// over a long wait does not smear it; 0.25 s at 100 Hz–1 kHz averages 25–250 samples.
    @inlinable static var realignmentTimeConstant: Float { 0.25 }

    /// The attitude can no longer be trusted (the tick calls this on a clipped gyroscope, a
    /// stall or a failsafe): re-establish it from the accelerometer at the next near-rest
    /// samples; in 9D the heading from the magnetometer readings that follow, averaged again
    /// from the moment the inclination is established. The hard-iron fit pauses meanwhile and
    /// forgets its readings: they were seen in an earth frame whose heading the clipped
    /// gyroscope has turned by an unknown angle, and would fit a false offset.
    @inlinable @inline(never)
    public mutating func loseConvergence() {
        convergence.lose()
        isOrdinary = false
        // The start-up count of the inertial low-pass is idle once it has started: it counts the
        // near-rest samples of the re-alignment (no state added to the filter).
        accelerationFilter.averagedCount = 0
        // A velocity change held from before was seen in the frame the clipped gyroscope lost.
        heldVelocityChange = SIMD3(0, 0, 0)
        holdsVelocityChange = false
        forgetTurn()
        magneticSamples = 0
        hardIron.sums = .init()
        hardIron.sinceObservation = -.infinity
        flags.insert(.notConverged)
    }

    /// After the inclination update, while not converged: does the accelerometer agree with
    /// the corrected estimate? Returns whether the attitude is established now.
    @inlinable @inline(never)
    mutating func establish(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float) -> Bool {
        guard convergence.observe(accelerometer: a, gyroscope: gyroscope,
                                  up: AttitudeConvergence.bodyUp(earthAttitude), gravity: gravity, dt: dt)
        else { return false }
        // Established: the heading averages again from here, the hard-iron fit resumes.
        isOrdinary = !compensatesLeverArm
        magneticSamples = 0
        hardIron.sums = .init()
        hardIron.sinceObservation = 0
        return true
    }

    /// Before the inclination update, while not converged: on a near-rest sample, the gravity
    /// filtered in I becomes the mean of the near-rest samples since the loss (the newest
    /// 0.25 s once there are more), so the inclination correction turns the estimate to it in
    /// this very sample. What was filtered before (during the tumble, in an I frame the clipped
    /// gyroscope got wrong) is dropped, not averaged away over 3 τ.
    @inlinable @inline(never)
    mutating func realign(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float) {
        guard !accelerationFilter.isAveraging,
              AttitudeConvergence.isQuiet(accelerometer: a, gyroscope: gyroscope, gravity: gravity) else { return }
        accelerationFilter.averagedCount += 1
        let weight = max(1 / accelerationFilter.averagedCount, min(dt / Self.realignmentTimeConstant, 1))
        let inertial = gyroscopeAttitude.rotate(a)
        accelerationFilter.output += (inertial - accelerationFilter.output) * weight
        accelerationFilter.rate = .zero
    }
}

import PoiseMath

extension PoiseFilter {
    /// The specific force at the centre of rotation: `a` less the tangential ω̇ × r and
    /// centripetal ω × (ω × r) accelerations of a sensor `settings.leverArm` away from it.
    /// ω is the bias-corrected rate, ω̇ its difference from the previous sample over `dt`;
    /// the derivative's noise is white and the inclination low-pass averages it away. A zero
    /// lever arm (the default) is never compensated (`compensatesLeverArm`).
    @inlinable @inline(__always)
    mutating func leverCompensated(_ a: SIMD3<Float>, rate: SIMD3<Float>, dt: Float) -> SIMD3<Float> {
        let r = settings.leverArm
        let angularAcceleration = (rate - previousRate) * (1 / dt)
        previousRate = rate
        return a - cross(angularAcceleration, r) - cross(rate, cross(rate, r))
    }

    /// `updateInclination` for a sensor away from the centre of rotation; out of line (reached
    /// through `updateInclinationUnusually`), so the default (no lever arm) pays none of it.
    @usableFromInline @inline(never)
    mutating func updateInclinationAtLeverArm(_ measured: SIMD3<Float>, rate: SIMD3<Float>, gyroscope: SIMD3<Float>,
                                              dt: Float, flags: inout FilterFlags) {
        let a = leverCompensated(measured, rate: rate, dt: dt)
        updateInclination(a, measured: measured, gyroscope: gyroscope, dt: dt, flags: &flags)
    }

    /// The inclination update of a sample that is not ordinary (`isOrdinary`): while the
    /// attitude is being re-established (near-rest samples re-align the filtered gravity before
    /// the update and are checked against the estimate after it), or with a lever arm. Out of
    /// line, so the common sample pays one branch for both.
    @usableFromInline @inline(never)
    mutating func updateInclinationUnusually(_ a: SIMD3<Float>, rate: SIMD3<Float>, gyroscope: SIMD3<Float>,
                                             dt: Float, flags: inout FilterFlags) {
        let established = convergence.isConverged
        if !established { realign(a, gyroscope: gyroscope, dt: dt) }
        if compensatesLeverArm {
            updateInclinationAtLeverArm(a, rate: rate, gyroscope: gyroscope, dt: dt, flags: &flags)
        } else {
            updateInclination(a, measured: a, gyroscope: gyroscope, dt: dt, flags: &flags)
        }
        if !established, !establish(a, gyroscope: gyroscope, dt: dt) {
            flags.insert(.notConverged)
        }
    }
}

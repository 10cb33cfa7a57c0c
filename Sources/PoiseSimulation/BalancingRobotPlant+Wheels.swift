import PoiseMath

extension BalancingRobotPlant {
    /// Each wheel's angle relative to the body, rad, positive rolling forward: what an
    /// encoder on the motor (which sits in the body) counts. Integrates the model's wheel
    /// speeds, (v ∓ ψ̇·track/2)/r − φ̇, in closed form from the start pose.
    public var wheelAngles: (left: Double, right: Double) {
        let r = parameters.wheelRadius, halfTrack = parameters.trackWidth / 2
        return ((position - heading * halfTrack) / r - lean, (position + heading * halfTrack) / r - lean)
    }

    /// The steady pitch, rad, at which the body rides a constant forward acceleration
    /// `acceleration` (m/s²) with its centre of mass over nothing but its own dynamics:
    /// negative, leaning into it. From the model's two equations with φ̈ = 0.
    public func ridingPitch(acceleration: Double) -> Double {
        let p = parameters
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        let rolling = M + 2 * p.wheelMass + 2 * p.wheelInertia / (r * r)
        return -Double(_atan2(Float(acceleration * (M * L + rolling * r)), Float(M * Double(Gravity.standard) * L)))
    }
}

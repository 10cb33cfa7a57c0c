/// Gains from an identified model by Skogestad's SIMC rules ("Simple analytic rules for
/// model reduction and PID controller tuning", J. Process Control 2003), with the closed-loop
/// time constant τc equal to the dead time θ — SIMC's own recommendation for a fast loop
/// that stays robust.
///
/// Why SIMC and not Ziegler–Nichols: the loops here are integrating (a rate loop's torque
/// integrates into rate, an angle loop's rate into angle, a robot's drive twice into pitch),
/// and ZN's ultimate-point rules give such loops about 25 % overshoot or more and a phase
/// margin near 25°; SIMC has closed forms for exactly these models, one knob (τc), and with
/// τc = θ gives a gain margin of about 3 and a phase margin of about 47° (PI on K e^(−θs)/s)
/// or 61° (P), which `LoopMargins` then checks on the identified model.
public enum TuningRule {
    /// The stated rule, for reports.
    public static let name = "SIMC (Skogestad 2003), τc = θ"

    /// Rate loop, K e^(−θs)/s: PI with kc = 1/(K(τc+θ)), Ti = 4(τc+θ). No D: the model has no
    /// lag left for it to cancel, and D on a motor's rate loop mostly amplifies vibration.
    public static func rateLoop(_ model: LoopModel, derivativeCutoffHz: Double) -> PIDGains {
        let tauC = model.delay
        let kc = 1 / (model.gain * (tauC + model.delay))
        let ti = 4 * (tauC + model.delay)
        return PIDGains(kp: kc, ki: kc / ti, kd: 0, derivativeCutoffHz: derivativeCutoffHz)
    }

    /// Angle loop over a closed rate loop, K e^(−θs)/s: P only, kc = 1/(K(τc+θ)) (an
    /// integrator needs no I to reach its setpoint).
    public static func angleLoop(_ model: LoopModel) -> PIDGains {
        PIDGains(kp: 1 / (model.gain * 2 * model.delay))
    }

    /// Balancing robot, K e^(−θs)/s²: SIMC's double-integrating rule, series PID
    /// kc = 1/(4K(τc+θ)²), Ti = Td = 4(τc+θ), written in the parallel form `PIDController`
    /// runs (kp = kc(1 + Td/Ti), ki = kc/Ti, kd = kc·Td).
    public static func balanceLoop(_ model: LoopModel, derivativeCutoffHz: Double) -> PIDGains {
        let t = 4 * (model.delay + model.delay)
        let kc = 1 / (4 * model.gain * (2 * model.delay) * (2 * model.delay))
        return PIDGains(kp: 2 * kc, ki: kc / t, kd: kc * t, derivativeCutoffHz: derivativeCutoffHz)
    }
}

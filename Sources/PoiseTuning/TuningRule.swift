import Foundation

/// Gains from the relay point and the model through it. Rate loops: Åström and Hägglund's
/// phase-margin rule on the point itself; angle loops and the balancing robot: Skogestad's
/// SIMC rules ("Simple analytic rules for model reduction and PID controller tuning",
/// J. Process Control 2003), which have closed forms for integrating models.
///
/// Why not Ziegler–Nichols: the loops are integrating (torque into rate, rate into angle,
/// drive twice into pitch), and ZN's ultimate-point rules give such loops 25 % overshoot or
/// more with a phase margin near 25°. docs/tuning.md says why each loop has its rule; the
/// report computes each result's margins on the identified model.
public enum TuningRule {
    /// The stated rule, for reports.
    public static let name = "rate loops: Åström–Hägglund phase margin 45° at ωu; angle loops: SIMC P, τc = 1.5θ; robot: poles at (s + ω)²(s + ω/32) on K e^(−θs)/(s² − a²) (SIMC double-integrating PID, τc + θ = 1/(2ω), Ti = 64(τc+θ), plus gravity a²/K in kp), ω = min(8a, phase margin 45° on the model, the drive at 10°)"

    /// The phase margin a rate loop's PID is designed for, degrees.
    public static let ratePhaseMargin = 45.0

    /// Rate loop: Åström and Hägglund's phase-margin rule on the measured point itself — the
    /// PID (Ti = 4Td, its D low-pass included) that moves G(jωu) to the unit circle at
    /// −180° + `ratePhaseMargin`, so the loop crosses over at ωu with that margin. A motor's
    /// lag is a first-order lag, not a dead time, so a K e^(−θs)/s model fitted at ωu is
    /// wrong below it (SIMC's PI on it left the closed rate loop peaking ~3× near the angle
    /// loop's frequency on the simulated quad); the rule needs only the point.
    ///
    /// The D low-pass is raised to at least 2.5 × 1/Tu (and written with the gains): a corner at
    /// ωu would cap the D term's lead near 45° there and the margin could not be had.
    public static func rateLoop(_ point: RelayPoint, derivativeCutoffHz configured: Double) -> PIDGains {
        let w = point.frequency
        let derivativeCutoffHz = max(configured, 2.5 / point.period)
        var want = -Double.pi + ratePhaseMargin * .pi / 180 - point.phase
        while want > .pi { want -= 2 * .pi }
        while want <= -.pi { want += 2 * .pi }
        let wf = derivativeCutoffHz > 0 ? 2 * Double.pi * derivativeCutoffHz : .infinity
        // The bracket 1 + 1/(jω·4Td) + jωTd/(1 + jω/ωf) as a function of x = ωTd.
        func bracket(_ x: Double) -> (re: Double, im: Double) {
            let r = w / wf, d = 1 + r * r
            return (1 + x * r / d, -1 / (4 * x) + x / d)
        }
        func phase(_ x: Double) -> Double { let b = bracket(x); return atan2(b.im, b.re) }
        // The phase rises from −90° with x to a maximum (the D filter caps it): bisect below it.
        var best = 0.01
        for i in 0...400 {
            let x = 0.01 * pow(10_000, Double(i) / 400)
            if phase(x) > phase(best) { best = x }
        }
        var x = best
        if phase(best) > want {
            var lo = 0.01, hi = best
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if phase(mid) < want { lo = mid } else { hi = mid }
            }
            x = (lo + hi) / 2
        }
        let b = bracket(x)
        let kp = 1 / (point.magnitude * (b.re * b.re + b.im * b.im).squareRoot())
        let td = x / w
        return PIDGains(kp: kp, ki: kp / (4 * td), kd: kp * td, derivativeCutoffHz: derivativeCutoffHz)
    }

    /// Angle loop over a closed rate loop, K e^(−θs)/s: P only, kc = 1/(K(τc+θ)) (an
    /// integrator needs no I to reach its setpoint), with τc = 1.5θ: the closed rate loop
    /// below it is no pure dead time (it peaks near its crossover), and at τc = θ the
    /// simulated stand overshot a 10° roll step by 24 %.
    public static func angleLoop(_ model: LoopModel) -> PIDGains {
        PIDGains(kp: 1 / (model.gain * 2.5 * model.delay))
    }

    /// What set the balancing robot's closed-loop speed.
    public enum BalanceLimit: String, Sendable, Codable {
        /// The loop's aim, `fallMultiple` × the fall rate.
        case fall = "fall_rate"
        /// The dead time: the fastest loop that keeps `balancePhaseMargin` on the model.
        case delay = "dead_time"
        /// The drive: the P term of the check tilt reaches the output limit.
        case drive = "drive"
        /// The drive cannot hold the check tilt in its linear range against gravity at twice
        /// the fall rate: the loop is kept at 2a and saturates at that tilt.
        case driveTooWeak = "drive_too_weak"
    }

    /// The robot's closed loop aims at this multiple of its fall rate √(g/h).
    public static let fallMultiple = 8.0
    /// The phase margin the robot's loop keeps on its model, degrees.
    public static let balancePhaseMargin = 45.0

    /// Balancing robot, K e^(−θs) s/((s + b)(s² − a²)) (``LoopModel``: the identified gain and
    /// dead time, the motors' pole b and the fall rate a = √(g/h) from the robot's figures),
    /// PID with its derivative on the measurement. Above b the plant is the falling double
    /// integrator K/(s² − a²); the delay-free loop's poles on it are placed at (s + ω)²(s + ω/32),
    ///
    ///     K·kp = ω²(1 + 1/16) + a²,   K·ki = ω³/32,   K·kd = 2ω,
    ///
    /// which is SIMC's double-integrating rule with τc + θ = 1/(2ω), Ti = 64(τc+θ),
    /// Td = 4(τc+θ), plus a²/K in kp: the gravity the P term first cancels, so a tall robot
    /// with weak motors gets more kp for the same speed. The motors' pole is left to the
    /// margin: below b it turns the plant's −180° towards −90°, the lead that lets the loop
    /// run faster than a double integrator with the same dead time would.
    ///
    /// ω is the smallest of: the aim, `fallMultiple` × a; the dead time's bound, the fastest
    /// ω that keeps `balancePhaseMargin` and a gain margin of 2 on the model with its dead
    /// time; and the drive's, the P term of a `saturatingAt` tilt (the release the check
    /// makes) within `outputLimit`, so the loop is linear over the tilts it is checked at —
    /// unless that is below 2a, where the drive is too weak for the tilt and the loop stays at 2a.
    public static func balanceLoop(_ model: LoopModel, derivativeCutoffHz: Double, saturatingAt tilt: Double,
                                   outputLimit: Double, rateHz: Double) -> (gains: PIDGains, limit: BalanceLimit, speed: Double) {
        let k = model.gain, a = model.fallRate
        func gains(_ w: Double) -> PIDGains {
            PIDGains(kp: (w * w * (1 + 1.0 / 16) + a * a) / k, ki: w * w * w / (32 * k), kd: 2 * w / k,
                     derivativeCutoffHz: derivativeCutoffHz)
        }
        func holds(_ w: Double) -> Bool {
            guard let m = LoopMargins(model: model, controller: gains(w), rateHz: rateHz) else { return false }
            return m.phaseMargin >= balancePhaseMargin && (m.gainMargin ?? .infinity) >= 2
        }
        let floor = 2 * max(a, 1)
        var w = fallMultiple * max(a, 1), limit = BalanceLimit.fall
        if !holds(w) {
            // Down from the aim in 2 % steps to the first ω the margins allow.
            while w > floor && !holds(w) { w *= 0.98 }
            limit = .delay
        }
        if gains(w).kp * tilt > outputLimit {
            // kp grows with ω: the fastest ω whose P term of the tilt stays within the limit.
            var lo = 0.0, hi = w
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if gains(mid).kp * tilt > outputLimit { hi = mid } else { lo = mid }
            }
            if lo >= floor { w = lo; limit = .drive } else { w = min(w, floor); limit = .driveTooWeak }
        }
        return (gains(w), limit, w)
    }
}

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
    public static let name = "rate loops: Åström–Hägglund phase margin 45° at ωu; angle loops: SIMC P, τc = 1.5θ; robot: SIMC double-integrating PID, τc ≥ θ (drive-limited), Ti = 64(τc+θ)"

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

    /// Balancing robot, K e^(−θs)/s²: SIMC's double-integrating rule, series PID
    /// kc = 1/(4K(τc+θ)²), Ti = Td = 4(τc+θ), written in the parallel form `PIDController`
    /// runs (kp = kc(1 + Td/Ti), ki = kc/Ti, kd = kc·Td).
    ///
    /// A robot's lags are short (a few ms), and τc = θ would ask for more drive than the motors
    /// have: τc is raised until the P term of a `saturatingAt` error (the 10° tilt) just
    /// reaches `outputLimit` (kp·tilt = limit), so the loop stays linear over the tilts it is
    /// checked at — the drive, not the lag, limits this loop.
    public static func balanceLoop(_ model: LoopModel, derivativeCutoffHz: Double, saturatingAt tilt: Double,
                                   outputLimit: Double) -> PIDGains {
        // Ti = 64(τc+θ), sixteen times SIMC's: the robot's check is a release from a tilt, whose
        // error the integral gathers on the way back up, and the drive feedback's lean against
        // the speed that the catch builds adds its own swing; a small integral gain keeps the
        // overshoot within 20 % (Ti = 16(τc+θ) overshot 25.6 % once the drive feedback was
        // 10° at 2 Hz, 32: 18.8 %, 64: 12.5 %). Then kp = kc(1 + Td/Ti) ≤ limit/tilt.
        let integralSpan = 64.0, derivativeSpan = 4.0
        let proportional = 1 + derivativeSpan / integralSpan
        let saturation = (proportional * tilt / (4 * model.gain * outputLimit)).squareRoot()
        let closed = max(2 * model.delay, saturation)
        let td = derivativeSpan * closed, ti = integralSpan * closed
        let kc = 1 / (4 * model.gain * closed * closed)
        return PIDGains(kp: kc * (1 + td / ti), ki: kc / ti, kd: kc * td, derivativeCutoffHz: derivativeCutoffHz)
    }
}

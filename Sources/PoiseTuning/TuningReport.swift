import Foundation

/// What `poise tune` found for one loop: the relay point, the model through it, the gains the
/// rule gives, their margins on the model and the step the model predicts.
public struct LoopTuning: Sendable, Equatable, Codable {
    /// The loop's configuration prefix, e.g. `controller.quad.pitch_rate`.
    public var loop: String
    public var relayAmplitude: Double
    /// The relay's hysteresis (±, in the loop's measurement unit): sized from the noise the
    /// loop's measurement had before the relay; 0 for none.
    public var relayHysteresis: Double = 0
    public var point: RelayPoint
    public var model: LoopModel
    public var gains: PIDGains
    public var margins: LoopMargins?
    /// The model's step (angle loops, the robot's pitch); nil for inner loops.
    public var predicted: StepResponse?
    /// The balancing robot's closed-loop speed ω, 1/s, and what set it; nil for the quad's loops.
    public var limitedBy: TuningRule.BalanceLimit? = nil
    public var closedLoopSpeed: Double? = nil
}

/// A verification run: the step the loop took, per axis, with some gains.
public struct StepCheck: Sendable, Equatable, Codable {
    /// "pitch" or "roll".
    public var axis: String
    /// nil when the run failed safe or never armed before the step.
    public var response: StepResponse?
    /// Why there is no response.
    public var problem: String?
}

/// Everything `poise tune` reports (`--json` prints this).
public struct TuningReport: Sendable, Equatable, Codable {
    /// "quadrotor" or "balancing_robot".
    public var rig: String
    public var simulated: Bool
    public var rule: String
    public var loops: [LoopTuning]
    /// Configuration keys and the values the tuning gives them (what `--save` writes).
    public var values: [String: Double]
    /// Seconds of relay experiment (excluding start-up and arming), and of everything run.
    public var experimentSeconds: Double
    public var totalSeconds: Double
    /// Steps with the gains the configuration started with, and with the tuned gains.
    public var before: [StepCheck]
    public var after: [StepCheck]

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    public var text: String {
        func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)g", x) }
        func settles(_ r: StepResponse) -> String {
            r.settlingTime.map { String(format: "settles (±%g°) in %.2f s", r.band, $0) } ?? String(format: "does not settle within ±%g°", r.band)
        }
        var lines: [String] = []
        lines.append("poise tune: \(rig.replacingOccurrences(of: "_", with: " ")) (\(simulated ? "simulated" : "real") rig), rule \(rule)")
        for l in loops {
            lines.append("")
            let hysteresis = l.relayHysteresis > 0 ? ", hysteresis ±\(f(l.relayHysteresis))" : ""
            lines.append("\(l.loop): relay ±\(f(l.relayAmplitude))\(hysteresis) → limit cycle \(f(l.point.period * 1000)) ms "
                         + "(\(l.point.cycles) periods), output ±\(f(l.point.outputAmplitude)), Ku \(f(l.point.ultimateGain)), "
                         + "G(jωu) = \(f(l.point.magnitude)) ∠\(f(l.point.phase * 180 / .pi))°")
            let integrators = l.model.kind == .integratingWithDelay ? "/s" : l.model.fallRate > 0 ? " s/((s + b)(s² − a²))" : l.model.motorPole > 0 ? "/(s(s + b))" : "/s²"
            let pole = l.model.motorPole > 0 ? ", b = \(f(l.model.motorPole)) /s (the motors' back-EMF, from the robot's figures)" : ""
            lines.append("  model K e^(−θs)\(integrators): K = \(f(l.model.gain)), θ = \(f(l.model.delay * 1000)) ms\(pole)")
            if let limit = l.limitedBy, let w = l.closedLoopSpeed {
                let why: String
                switch limit {
                case .fall: why = "the aim, \(f(TuningRule.fallMultiple))× the fall rate"
                case .delay: why = "the dead time (phase margin \(f(TuningRule.balancePhaseMargin))° on the model)"
                case .drive: why = "the drive (a \(f(l.predicted?.size ?? 10))° tilt's P term at output_limit)"
                case .driveTooWeak: why = "the fall (2a): the drive cannot hold a \(f(l.predicted?.size ?? 10))° tilt linearly against gravity, so it saturates there"
                }
                let fall = l.model.fallRate > 0 ? ", a = \(f(l.model.fallRate)) /s (√(g/h))" : ""
                lines.append("  closed loop ω = \(f(w)) /s (1/ω = \(f(1000 / w)) ms), set by \(why)\(fall)")
            }
            var gains = "  gains kp \(f(l.gains.kp, 4))"
            if l.gains.ki != 0 || l.gains.kd != 0 { gains += ", ki \(f(l.gains.ki, 4)), kd \(f(l.gains.kd, 4))" }
            lines.append(gains)
            if let m = l.margins {
                var margin = "  margins on the model: phase \(f(m.phaseMargin))° at \(f(m.crossover)) rad/s"
                if let g = m.gainMargin { margin += ", gain ×\(f(g))" }
                if let g = m.lowerGainMargin { margin += " (and ÷\(f(g)))" }
                lines.append(margin)
            }
            if let p = l.predicted {
                lines.append("  predicted \(f(p.size))° step: \(settles(p)), overshoot \(f(p.overshoot * 100))%")
            }
        }
        func steps(_ title: String, _ checks: [StepCheck]) {
            guard !checks.isEmpty else { return }
            lines.append("")
            lines.append(title)
            for c in checks {
                if let r = c.response {
                    lines.append("  \(c.axis) \(f(r.size))°: \(settles(r)), overshoot \(f(r.overshoot * 100))%")
                } else {
                    lines.append("  \(c.axis): \(c.problem ?? "no response")")
                }
            }
        }
        steps("measured with the starting gains:", before)
        steps("measured with the tuned gains:", after)
        lines.append("")
        lines.append("experiment: \(String(format: "%.1f", experimentSeconds)) s of relay (\(String(format: "%.1f", totalSeconds)) \(simulated ? "simulated " : "")s in all)")
        return lines.joined(separator: "\n")
    }
}

extension TuningReport {
    /// A settling time may be this much longer (a share of the starting one, at least
    /// ``settlingSlack`` s) and an overshoot this much larger before the tuned gains count as worse.
    public static let settlingTolerance = 0.2
    public static let settlingSlack = 0.02
    public static let overshootTolerance = 0.01
    /// An overshoot up to this counts as within the rules' aim (20 %, what TuneCommandTests
    /// hold the tuned gains to), however sluggish and overshoot-free the starting gains were.
    public static let acceptableOvershoot = 0.2

    /// Where the tuned gains' check step did worse than the starting gains' on the same rig,
    /// one line per axis ("pitch settles in 1.18 s against 0.48 s"); empty when no axis did,
    /// or when the starting gains were not checked (a real robot, `checkStartingGains: false`).
    public var regressions: [String] {
        var lines: [String] = []
        for check in after {
            guard let start = before.first(where: { $0.axis == check.axis }), let was = start.response else { continue }
            guard let now = check.response else {
                lines.append("\(check.axis): \(check.problem ?? "no response") with the tuned gains, where the starting gains settled")
                continue
            }
            func seconds(_ x: Double?) -> String { x.map { String(format: "%.2f s", $0) } ?? "never" }
            if let a = was.settlingTime, now.settlingTime.map({ $0 > a + max(Self.settlingSlack, Self.settlingTolerance * a) }) ?? true {
                lines.append("\(check.axis) settles in \(seconds(now.settlingTime)) against \(seconds(was.settlingTime)) with the starting gains")
            }
            if now.overshoot > was.overshoot + Self.overshootTolerance, now.overshoot > Self.acceptableOvershoot {
                lines.append(String(format: "%@ overshoots %.0f %% against %.0f %% with the starting gains", check.axis,
                                    now.overshoot * 100, was.overshoot * 100))
            }
        }
        return lines
    }
}

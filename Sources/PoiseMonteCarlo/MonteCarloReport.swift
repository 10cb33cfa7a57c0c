import PoiseConfig
import PoiseJSON
import PoiseRun

/// The report of a Monte-Carlo run, as text and as JSON: the success rate, the trials whose
/// plant diverged (apart), the distributions of settling time, worst tilt, pitch RMS and time
/// at an output limit, and the worst trials with the command that reproduces each alone. A
/// figure that was not measured is "—" (null), never a number. Depends only on the outcomes (not on timing or threads), so the same
/// seeds give the same bytes.
public struct MonteCarloReport: Sendable {
    public var plan: MonteCarloPlan
    public var run: MonteCarloRun
    /// `poise simulate` plus the options that select the configuration and duration, before `--trial K`.
    public var commandPrefix: [String]
    /// How many of the worst trials to name.
    public var worstCount = 5
    /// A run cut short (Ctrl-C): the signal's name and the trials planned. The report is then
    /// of the finished trials only, and says so first.
    public var partial: (signal: String, planned: Int)?

    public init(plan: MonteCarloPlan, run: MonteCarloRun, commandPrefix: [String]) {
        self.plan = plan
        self.run = run
        self.commandPrefix = commandPrefix
    }

    var outcomes: [TrialOutcome] { run.outcomes }
    var successes: Int { outcomes.filter(\.success).count }
    var settling: OutcomeDistribution? { OutcomeDistribution(outcomes.compactMap(\.settlingTime)) }
    var worstTilt: OutcomeDistribution? { OutcomeDistribution(outcomes.compactMap(\.worstTilt)) }
    var pitchRMS: OutcomeDistribution? { OutcomeDistribution(outcomes.compactMap(\.pitchRMS)) }
    /// Trials whose plant diverged: failures, reported apart, in none of the distributions.
    var diverged: [TrialOutcome] { outcomes.filter { $0.divergence != nil } }
    /// Trials with a non-finite figure (the plant did not say it diverged): failures too.
    var nonFinite: [TrialOutcome] { outcomes.filter { $0.divergence == nil && !$0.nonFinite.isEmpty } }
    /// The share of armed time at a limit, in percent, over the trials that armed.
    var saturation: OutcomeDistribution? { OutcomeDistribution(outcomes.compactMap { $0.saturation.map { 100 * $0 } }) }
    var marginal: Int { outcomes.filter(\.marginal).count }
    public var worst: [TrialOutcome] { Array(outcomes.sorted(by: TrialOutcome.worseThan).prefix(worstCount)) }

    /// The command that runs trial `trial` alone.
    public func reproduceCommand(_ trial: Int) -> String {
        (commandPrefix + ["--trial", String(trial)]).map(Formatting.shellWord).joined(separator: " ")
    }

    var plantName: String { SimulatedRigName.text(plan.configuration) }

    // MARK: Text

    public var text: String {
        var lines: [String] = []
        let n = outcomes.count
        if let partial {
            lines.append("PARTIAL: interrupted by \(partial.signal) after \(n) of \(partial.planned) trials; "
                + "every figure below is over the \(n) finished trial\(n == 1 ? "" : "s") only")
        }
        lines.append("\(n) trial\(n == 1 ? "" : "s") of \(Formatting.number(plan.duration)) simulated s, \(plantName), spread \(plan.spread.name) (\(plan.spread.entries.count) key\(plan.spread.entries.count == 1 ? "" : "s")), base seed \(plan.baseSeed)")
        let rate = n == 0 ? 0 : 100 * Double(successes) / Double(n)
        lines.append("success: \(successes)/\(n) (\(Formatting.fixed(rate, 1)) %) \(run.rule.text)")
        if !diverged.isEmpty {
            let first = diverged.map { $0.divergence!.time }.min()!
            lines.append("diverged: \(diverged.count)/\(n) — the plant's integration broke down (non-finite state, or too stiff to integrate) "
                + "from \(Formatting.fixed(first, 3)) s; counted as failures, in none of the figures below")
        }
        if !nonFinite.isEmpty {
            lines.append("non-finite: \(nonFinite.count)/\(n) — a figure came out NaN or infinite; counted as failures, in none of the figures below")
        }
        let unsettled = outcomes.filter { $0.settlingTime == nil && $0.divergence == nil && $0.nonFinite.isEmpty }.count
        lines.append("settling time (s after arming, true pitch within 1° to the end): "
            + (settling?.text ?? "none settled") + (unsettled > 0 ? "  (\(unsettled) never settled)" : ""))
        lines.append("worst tilt (°, true |pitch| or |roll| from 2 s after arming): " + (worstTilt?.text ?? "—"))
        lines.append("true pitch RMS after settling (°, settled trials only): " + (pitchRMS?.text ?? "—"))
        lines.append("drive outputs at a limit (% of armed time, any ESC or wheel drive): " + (saturation?.text ?? "—")
            + (marginal > 0 ? "  (\(marginal) held but marginal: at a limit ≥ \(Formatting.number(100 * Saturation.marginalFraction)) % of the time)" : ""))
        if !outcomes.isEmpty {
            lines.append(n == 1 ? "the trial:" : "worst trials:")
            for outcome in worst { lines += trialLines(outcome) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A trial's summary line, its drawn values and how to run it alone.
    public func trialLines(_ o: TrialOutcome) -> [String] {
        var line = "  trial \(o.trial)  seed \(o.seed)  \(o.success ? (o.marginal ? "held, MARGINAL" : "held") : "FAILED")"
        if let d = o.divergence { line += "  DIVERGED at \(Formatting.fixed(d.time, 3)) s (\(d.cause))" }
        if o.divergence == nil, !o.nonFinite.isEmpty { line += "  NON-FINITE \(o.nonFinite.joined(separator: ", "))" }
        if o.armedAt == nil { line += "  never armed" }
        if let at = o.failsafeAt, o.divergence.map({ at < $0.time }) ?? true {
            line += "  failed safe (\(o.failsafeReason ?? "")) at \(Formatting.fixed(at, 2)) s"
        }
        let measured = o.divergence == nil && o.nonFinite.isEmpty
        line += "  settled " + (o.settlingTime.map { "\(Formatting.fixed($0, 2)) s" } ?? (measured ? "never" : "—"))
        line += "  worst tilt \(RunFigures.text(o.worstTilt, 2, unit: "°"))  pitch RMS \(RunFigures.text(o.pitchRMS, 3, unit: "°"))"
        if let lean = o.leanError { line += "  worst lean error \(Formatting.fixed(lean, 2))°" }
        line += "  at a limit " + (o.saturation.map { "\(Formatting.fixed(100 * $0, 1)) %" } ?? "—")
        var lines = [line]
        if !o.drawn.isEmpty {
            // One value a line, to 4 significant digits (the JSON report keeps every digit).
            lines.append("    drawn:")
            let width = o.drawn.map(\.path.count).max() ?? 0
            for d in o.drawn {
                lines.append("      " + d.path + String(repeating: " ", count: width - d.path.count) + " = " + Self.valueText(d.value))
            }
        }
        lines.append("    alone: \(reproduceCommand(o.trial))")
        return lines
    }

    static func valueText(_ value: ConfigValue) -> String {
        switch value {
        case .number(let x): Formatting.significant(x)
        case .integer(let n): String(n)
        case .vector3(let v): "[\(Formatting.significant(v.x)), \(Formatting.significant(v.y)), \(Formatting.significant(v.z))]"
        default: "\(value)"
        }
    }

    // MARK: JSON

    /// One object; each trial on a line of its own, so one trial's line can be compared alone.
    public var json: String {
        var lines = ["{"]
        lines.append("  \"plant\": \(JSONString.quoted(plantName)),")
        lines.append("  \"spread\": \(JSONString.quoted(plan.spread.name)),")
        lines.append("  \"base_seed\": \(plan.baseSeed),")
        lines.append("  \"duration_s\": \(Formatting.number(plan.duration)),")
        if let partial {
            lines.append("  \"partial\": true,")
            lines.append("  \"interrupted_by\": \(JSONString.quoted(partial.signal)),")
            lines.append("  \"trials_planned\": \(partial.planned),")
        }
        lines.append("  \"trials_run\": \(outcomes.count),")
        lines.append("  \"successes\": \(successes),")
        lines.append("  \"success_rate\": \(Formatting.fixed(outcomes.isEmpty ? 0 : Double(successes) / Double(outcomes.count), 4)),")
        lines.append("  \"diverged\": \(diverged.count),")
        lines.append("  \"non_finite\": \(nonFinite.count),")
        lines.append("  \"never_settled\": \(outcomes.filter { $0.settlingTime == nil && $0.divergence == nil && $0.nonFinite.isEmpty }.count),")
        lines.append("  \"marginal\": \(marginal),")
        lines.append("  \"marginal_saturation_fraction\": \(Formatting.number(Saturation.marginalFraction)),")
        lines.append("  \"settling_time_s\": \(settling?.json ?? "null"),")
        lines.append("  \"worst_tilt_deg\": \(worstTilt?.json ?? "null"),")
        lines.append("  \"pitch_rms_deg\": \(pitchRMS?.json ?? "null"),")
        lines.append("  \"saturated_percent\": \(saturation?.json ?? "null"),")
        lines.append("  \"worst_trials\": [\(worst.map { String($0.trial) }.joined(separator: ", "))],")
        lines.append("  \"trials\": [")
        for (i, o) in outcomes.enumerated() {
            lines.append("    " + Self.json(o, command: reproduceCommand(o.trial)) + (i + 1 < outcomes.count ? "," : ""))
        }
        lines.append("  ]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ o: TrialOutcome, command: String) -> String {
        func optional(_ x: Double?, _ digits: Int = 4) -> String { x.map { Formatting.fixed($0, digits) } ?? "null" }
        let drawn = o.drawn.map { "\(JSONString.quoted($0.path)): \(jsonValue($0.value))" }.joined(separator: ", ")
        return "{\"trial\": \(o.trial), \"seed\": \(o.seed), \"success\": \(o.success), \"marginal\": \(o.marginal), \"armed_s\": \(optional(o.armedAt)), "
            + "\"failsafe_s\": \(optional(o.failsafeAt)), \"failsafe_reason\": \(o.failsafeReason.map(JSONString.quoted) ?? "null"), "
            + "\"diverged_s\": \(optional(o.divergence?.time)), \"diverged_cause\": \(o.divergence.map { JSONString.quoted($0.cause) } ?? "null"), "
            + "\"non_finite\": [\(o.nonFinite.map(JSONString.quoted).joined(separator: ", "))], "
            + "\"settling_time_s\": \(optional(o.settlingTime)), \"worst_tilt_deg\": \(optional(o.worstTilt)), "
            + "\"pitch_rms_deg\": \(optional(o.pitchRMS)), \"lean_error_deg\": \(optional(o.leanError)), "
            + "\"saturated_fraction\": \(optional(o.saturation)), \"drawn\": {\(drawn)}, \"alone\": \(JSONString.quoted(command))}"
    }

    static func jsonValue(_ value: ConfigValue) -> String {
        switch value {
        case .number(let x): "\(x)"
        case .integer(let n): String(n)
        case .vector3(let v): "[\(v.x), \(v.y), \(v.z)]"
        default: JSONString.quoted("\(value)")
        }
    }
}

/// The plant's name as the configuration writes it.
enum SimulatedRigName {
    static func text(_ configuration: PoiseConfiguration) -> String {
        switch SimulatedRig.plant(configuration) {
        case .balancingRobot: "balancing robot"
        case .quadrotor: "quadrotor on its stand"
        case .motion: "scripted motion"
        case .auto: "auto"
        }
    }
}

/// Which way a safety key's value lets more through: a larger tilt limit, a longer timeout,
/// a shorter hold, automatic arming switched on.
public enum SafetyWidening: Sendable, Equatable {
    /// A larger value (or `true`) widens the limit.
    case up
    /// A smaller value (or `false`) widens it.
    case down
}

extension ConfigSchema {
    /// The safety limits and the direction that widens each. While the outputs are armed a
    /// change that widens one is refused, from PARAM_SET and SIGHUP alike (narrowing is always
    /// taken: it can only make the supervisor act sooner).
    public static let safetyLimits: [(path: String, widens: SafetyWidening)] = [
        ("safety.max_tilt_deg", .up),
        ("safety.arm_tilt_deg", .up),
        ("safety.arm_hold_s", .down),
        ("safety.auto_arm", .up),
        ("safety.sensor_timeout_ms", .up),
        ("safety.stall_ms", .up),
        ("loop.overrun_limit", .up),
        ("telemetry.setpoint_timeout_ms", .up),
    ]

    /// Each safety limit `fresh` widens compared with `current`: "safety.max_tilt_deg 45 -> 180" (ASCII: a ground station shows it).
    public static func widenedSafetyLimits(from current: ConfigTable, to fresh: ConfigTable) -> [String] {
        func number(_ value: ConfigValue?) -> Double? {
            switch value {
            case .number(let v): v
            case .integer(let v): Double(v)
            case .boolean(let v): v ? 1 : 0
            default: nil
            }
        }
        func text(_ value: ConfigValue?) -> String {
            switch value {
            case .number(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
            case .integer(let v): String(v)
            case .boolean(let v): String(v)
            default: "?"
            }
        }
        return safetyLimits.compactMap { limit in
            guard let old = number(current[limit.path]), let new = number(fresh[limit.path]) else { return nil }
            let wider = limit.widens == .up ? new > old : new < old
            return wider ? "\(limit.path) \(text(current[limit.path])) -> \(text(fresh[limit.path]))" : nil
        }
    }

    /// The safety limits that must agree with each other, in files and PARAM_SET alike (the
    /// cross-key rules run for both).
    static let safetyRules: [ConfigRule] = [
        // A robot allowed to arm at a tilt it would fail safe at arms into a failsafe.
        ConfigRule(paths: ["safety.arm_tilt_deg", "safety.max_tilt_deg"]) { file, _ in
            guard file.number("safety.arm_tilt_deg") > file.number("safety.max_tilt_deg") else { return nil }
            return "safety.arm_tilt_deg (\(file.number("safety.arm_tilt_deg"))°) is above safety.max_tilt_deg "
                + "(\(file.number("safety.max_tilt_deg"))°): arming would be allowed at a tilt that fails safe"
        },
    ]
}

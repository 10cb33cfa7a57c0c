import PoiseControl

/// One ground-station parameter: a number, whole number or switch of the configuration that a
/// running loop takes (SIGHUP, PARAM_SET), under its MAVLink name, with the key's range and
/// the conversion its binding applies. `poise run` (PoiseRun's `ParameterTable`) and
/// `poise-board run` list, read, check and apply parameters through this one table
/// (``FlightParameters/all``); a host test checks it against the configuration schema (every
/// live number key, the same names, ranges and units) and that ``apply(_:to:)`` gives what the
/// key's binding gives.
public struct FlightParameter: Sendable {
    public enum Kind: Sendable, Equatable {
        case number, integer, boolean
    }

    /// Which way a safety limit lets more through (nil: not a safety limit).
    public enum Widening: Sendable, Equatable {
        case up, down
    }

    /// The MAVLink name (16 characters at most).
    public let name: String
    /// The configuration key's dotted path.
    public let path: String
    public let kind: Kind
    /// The key's range in the file's unit (a switch: 0…1).
    public let minimum: Double, maximum: Double
    /// The file's unit, as the schema writes it ("°", "ms", "" for none).
    public let unit: String
    public let widens: Widening?
    /// Sets the file's value `value` (a switch 0 or 1) into the settings, converted as the key's binding converts it.
    let set: @Sendable (inout FlightSettings, Double) -> Void

    init(_ name: String, _ path: String, kind: Kind = .number, _ minimum: Double, _ maximum: Double, unit: String = "",
         widens: Widening? = nil, _ set: @escaping @Sendable (inout FlightSettings, Double) -> Void) {
        self.name = name
        self.path = path
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.widens = widens
        self.set = set
    }

    /// `settings` with this key at the file's value `value` (in range, checked by ``problem(with:)``).
    /// A controller's key changes nothing when the settings run another kind; with no
    /// controller the tilt limits stay off (as the host's settings resolve them).
    public func apply(_ value: Double, to settings: inout FlightSettings) { set(&settings, value) }

    /// The file's value of a PARAM_SET's float, or why it is none (a switch is 0 or 1, a whole
    /// number whole). A number is the float's shortest decimal (0.1, not 0.10000000149011612):
    /// what the ground station showed, and what storage writes.
    public func value(ofParameter value: Float) -> Result<Double, FlightParameterError> {
        guard value.isFinite else { return .failure(FlightParameterError("not a finite number")) }
        switch kind {
        case .number:
            return .success(Double(value.description) ?? Double(value))
        case .integer:
            guard value == value.rounded(), value.magnitude < 1e9 else {
                return .failure(FlightParameterError(value.description + " is not a whole number"))
            }
            return .success(Double(value))
        case .boolean:
            guard value == 0 || value == 1 else { return .failure(FlightParameterError("a switch is 0 or 1, not " + value.description)) }
            return .success(Double(value))
        }
    }

    /// What is wrong with the file's value `value`, in the loader's words ("`500.0` is out of
    /// range"), or nil when the key allows it.
    public func problem(with value: Double) -> String? {
        guard value.isFinite else { return "expected a finite number, got `" + value.description + "`" }
        guard value >= minimum, value <= maximum else {
            return "`" + Self.text(value, kind: kind == .integer ? .integer : .number) + "` is out of range"
        }
        return nil
    }

    /// ``problem(with:)`` of a value read from `text` (``value(parsing:)``): a whole number out
    /// of range named as the loader names it, to the digit (past a `Double`'s 53 bits too).
    public func problem(with value: Double, written text: Substring) -> String? {
        guard kind == .integer, !(value >= minimum && value <= maximum), let whole = Self.wholeNumber(parsing: text) else {
            return problem(with: value)
        }
        return "`" + String(whole) + "` is out of range"
    }

    /// The range as the loader names it: "0…180 °", "1…1000", "true, false".
    public var allowed: String {
        switch kind {
        case .boolean: return "true, false"
        case .integer, .number:
            return Self.shortNumber(minimum) + "…" + Self.shortNumber(maximum) + (unit.isEmpty ? "" : " " + unit)
        }
    }

    /// The file's value read from a scalar's text as the YAML loader takes it (`true`/`false`
    /// for a switch, a whole number also as hexadecimal), nil when it is none of the key's type.
    public func value(parsing text: Substring) -> Double? {
        switch kind {
        case .boolean:
            if text == "true" { return 1 }
            if text == "false" { return 0 }
            return nil
        case .integer:
            return Self.wholeNumber(parsing: text).map(Double.init)
        case .number:
            guard let number = Double(String(text)), number.isFinite else { return nil }
            return number
        }
    }

    /// A whole number as the YAML loader takes it: decimal, or hexadecimal after `0x`.
    static func wholeNumber(parsing text: Substring) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }

    /// The file's value as the YAML writer writes it: `true`, `12`, `31.5`, `30.0`.
    public func text(_ value: Double) -> String { Self.text(value, kind: kind) }

    static func text(_ value: Double, kind: Kind) -> String {
        switch kind {
        case .boolean: return value != 0 ? "true" : "false"
        case .integer: return value.magnitude < 0x1p63 ? String(Int(value)) : value.description  // a `# was` read past Int's range
        case .number: return value.description
        }
    }

    /// A whole number without its fraction, anything else as Swift writes it ("1000", "0.01").
    static func shortNumber(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : value.description
    }

    /// The text a widened limit is named with: "45", "0.5", "true".
    public func limitText(_ value: Double) -> String {
        switch kind {
        case .boolean: return value != 0 ? "true" : "false"
        case .integer: return String(Int(value))
        case .number: return Self.shortNumber(value)
        }
    }
}

/// Why a parameter's value was refused.
public struct FlightParameterError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The parameter table (``FlightParameter``), in the schema's order.
public enum FlightParameters {
    public static let all: [FlightParameter] = balance + quad + safety

    /// The parameter named `name` (MAVLink), nil when none is.
    public static func index(ofName name: String) -> Int? { all.firstIndex { $0.name == name } }

    /// The parameter of the key `path`, nil when the key is none.
    public static func index(ofPath path: String) -> Int? { all.firstIndex { $0.path == path } }

    /// Each safety limit `fresh` widens against `current` (the file's values, table order):
    /// "safety.max_tilt_deg 45 -> 180" (ASCII: a ground station shows it).
    public static func widenedSafetyLimits(from current: [Double], to fresh: [Double]) -> [String] {
        var wider: [String] = []
        for (index, parameter) in all.enumerated() {
            guard let widens = parameter.widens, index < current.count, index < fresh.count else { continue }
            let (old, new) = (current[index], fresh[index])
            if widens == .up ? new > old : new < old {
                wider.append(parameter.path + " " + parameter.limitText(old) + " -> " + parameter.limitText(new))
            }
        }
        return wider
    }

    /// The cross-key rules among parameters that the loader also checks (the file's values,
    /// table order): a robot allowed to arm at a tilt it would fail safe at arms into a failsafe.
    public static func brokenRules(in values: [Double]) -> [(path: String, message: String)] {
        guard let arm = index(ofPath: "safety.arm_tilt_deg"), let max = index(ofPath: "safety.max_tilt_deg"),
              arm < values.count, max < values.count, values[arm] > values[max] else { return [] }
        return [("safety.arm_tilt_deg", "safety.arm_tilt_deg (" + values[arm].description + "°) is above safety.max_tilt_deg ("
                 + values[max].description + "°): arming would be allowed at a tilt that fails safe")]
    }

    // MARK: The conversions the keys' bindings apply

    /// Degrees in the file, radians in the settings, converted in `Double` and rounded to `Float` once.
    static func radians(_ degrees: Double) -> Float { Float(degrees * .pi / 180) }

    static func balance(_ change: @escaping @Sendable (inout BalanceSettings, Double) -> Void) -> @Sendable (inout FlightSettings, Double) -> Void {
        { settings, value in
            guard case .balance(var balance) = settings.controller else { return }
            change(&balance, value)
            settings.controller = .balance(balance)
        }
    }

    static func quad(_ change: @escaping @Sendable (inout QuadSettings, Double) -> Void) -> @Sendable (inout FlightSettings, Double) -> Void {
        { settings, value in
            guard case .quad(var quad) = settings.controller else { return }
            change(&quad, value)
            settings.controller = .quad(quad)
        }
    }

    /// The six parameters of one PID (`kp ki kd d_cutoff_hz output_limit integral_limit`).
    static func pid(_ name: String, _ path: String, unit: String,
                    _ wrap: (@escaping @Sendable (inout PIDSettings, Double) -> Void) -> @Sendable (inout FlightSettings, Double) -> Void)
        -> [FlightParameter] {
        [
            FlightParameter(name + "_P", path + ".kp", 0, 1000, unit: "1/" + unit, wrap { $0.proportionalGain = Float($1) }),
            FlightParameter(name + "_I", path + ".ki", 0, 1000, unit: "1/(" + unit + "·s)", wrap { $0.integralGain = Float($1) }),
            FlightParameter(name + "_D", path + ".kd", 0, 1000, unit: "s/" + unit, wrap { $0.derivativeGain = Float($1) }),
            FlightParameter(name + "_DCUT", path + ".d_cutoff_hz", 0, 1000, unit: "Hz", wrap { $0.derivativeCutoffHz = Float($1) }),
            FlightParameter(name + "_OMAX", path + ".output_limit", 0, 1, wrap { $0.outputLimit = Float($1) }),
            FlightParameter(name + "_IMAX", path + ".integral_limit", 0, 1, wrap { $0.integralLimit = Float($1) }),
        ]
    }

    static let balance: [FlightParameter] = [
        FlightParameter("BAL_PIT_SP", "controller.balance.pitch_setpoint_deg", -30, 30, unit: "°", balance { $0.pitchSetpoint = radians($1) }),
        FlightParameter("BAL_DRV_FB", "controller.balance.drive_feedback_deg", -30, 30, unit: "°", balance { $0.driveFeedback = radians($1) }),
        FlightParameter("BAL_DRV_FB_CUT", "controller.balance.drive_feedback_cutoff_hz", 0, 10, unit: "Hz",
                        balance { $0.driveFeedbackCutoffHz = Float($1) }),
        FlightParameter("BAL_DBND_COMP", "controller.balance.deadband_compensation", 0, 0.5, balance { $0.deadbandCompensation = Float($1) }),
        FlightParameter("BAL_FULL_DRV_SPD", "controller.balance.full_drive_speed_m_s", 0.01, 20, unit: "m/s",
                        balance { $0.fullDriveSpeed = Float($1) }),
        FlightParameter("BAL_ACC_LEAN", "controller.balance.acceleration_lean_deg", 0, 60, unit: "°·s²/m",
                        balance { $0.accelerationLean = radians($1) }),
        FlightParameter("BAL_MAX_ACC", "controller.balance.max_acceleration_m_s2", 0, 10, unit: "m/s²", balance { $0.maxAcceleration = Float($1) }),
        FlightParameter("BAL_TRN_FF", "controller.balance.turn_feedforward", 0, 10, unit: "s/rad", balance { $0.turnFeedforward = Float($1) }),
        FlightParameter("BAL_WHL_RAD", "controller.balance.wheel_radius_m", 0.005, 1, unit: "m", balance { $0.wheelRadius = Float($1) }),
        FlightParameter("BAL_ENC_CPR", "controller.balance.encoders.counts_per_revolution", 0, 1_000_000,
                        balance { $0.encoderCountsPerRevolution = Float($1) }),
    ] + pid("BAL_PIT", "controller.balance.pitch", unit: "rad") { change in balance { change(&$0.pitch, $1) } }
      + pid("BAL_YAW_RT", "controller.balance.yaw_rate", unit: "(rad/s)") { change in balance { change(&$0.yawRate, $1) } }

    static let quad: [FlightParameter] = [
        FlightParameter("QUAD_ANG_GAIN", "controller.quad.angle_gain", 0, 50, unit: "1/s", quad { $0.angleGain = Float($1) }),
        FlightParameter("QUAD_MAX_TILT_RT", "controller.quad.max_tilt_rate_dps", 1, 2000, unit: "°/s", quad { $0.maxTiltRate = radians($1) }),
        FlightParameter("QUAD_HDG_GAIN", "controller.quad.heading_gain", 0, 50, unit: "1/s", quad { $0.headingGain = Float($1) }),
        FlightParameter("QUAD_MAX_YAW_RT", "controller.quad.max_yaw_rate_dps", 1, 2000, unit: "°/s", quad { $0.maxYawRate = radians($1) }),
        FlightParameter("QUAD_IDLE_THR", "controller.quad.idle_throttle", 0, 0.5, quad { $0.idleThrottle = Float($1) }),
    ] + pid("QUAD_PIT_RT", "controller.quad.pitch_rate", unit: "(rad/s)") { change in quad { change(&$0.pitchRate, $1) } }
      + pid("QUAD_RLL_RT", "controller.quad.roll_rate", unit: "(rad/s)") { change in quad { change(&$0.rollRate, $1) } }
      + pid("QUAD_YAW_RT", "controller.quad.yaw_rate", unit: "(rad/s)") { change in quad { change(&$0.yawRate, $1) } }

    /// With no controller nothing can fall over: the tilt limits stay off.
    static func tilt(_ change: @escaping @Sendable (inout SafetySettings, Float) -> Void) -> @Sendable (inout FlightSettings, Double) -> Void {
        { settings, value in
            if case .none = settings.controller { return }
            change(&settings.safety, radians(value))
        }
    }

    static let safety: [FlightParameter] = [
        FlightParameter("SAFE_MAX_TILT", "safety.max_tilt_deg", 0, 180, unit: "°", widens: .up, tilt { $0.maxTilt = $1 }),
        FlightParameter("SAFE_ARM_TILT", "safety.arm_tilt_deg", 0, 90, unit: "°", widens: .up, tilt { $0.armTilt = $1 }),
        FlightParameter("SAFE_ARM_HOLD", "safety.arm_hold_s", 0, 60, unit: "s", widens: .down) { $0.safety.armHoldTime = $1 },
        FlightParameter("SAFE_AUTO_ARM", "safety.auto_arm", kind: .boolean, 0, 1, widens: .up) { $0.safety.autoArm = $1 != 0 },
        FlightParameter("SAFE_SNS_TMO", "safety.sensor_timeout_ms", 1, 10000, unit: "ms", widens: .up) { $0.safety.sensorTimeout = $1 / 1000 },
        FlightParameter("SAFE_STALL", "safety.stall_ms", 1, 10000, unit: "ms", widens: .up) { $0.safety.stallTime = $1 / 1000 },
        FlightParameter("LOOP_OVR_LIM", "loop.overrun_limit", kind: .integer, 1, 1000, widens: .up) { $0.safety.overrunLimit = Int($1) },
    ]
}

extension FlightParameters {
    /// The MAVLink name the rule gives a configuration key (the table's names follow it; PoiseRun's
    /// `ParameterTable` documents it, and names restart-only keys with it): drop `controller.`;
    /// replace the phrases ``phrases``; drop the unit words ``units``; shorten each remaining word
    /// by ``abbreviations``, the rest in upper case; join with `_`.
    public static func name(forKey path: String) -> String {
        var text = path.hasPrefix("controller.") ? String(path.dropFirst("controller.".count)) : path
        for (phrase, short) in phrases { text = replacing(phrase, with: short, in: text) }
        var name = ""
        for word in text.split(whereSeparator: { $0 == "." || $0 == "_" }) {
            let word = String(word)
            if units.contains(word) { continue }
            if !name.isEmpty { name += "_" }
            if let short = abbreviations[word] { name += short } else { name += upperCased(word) }
        }
        return name
    }

    public static let phrases: [(String, String)] = [("integral_limit", "imax"), ("output_limit", "omax"), ("d_cutoff_hz", "dcut"),
                                                       ("counts_per_revolution", "cpr")]
    public static let units: Set<String> = ["deg", "dps", "hz", "ms", "s", "m", "s2"]
    public static let abbreviations: [String: String] = [
        "balance": "BAL", "safety": "SAFE", "pitch": "PIT", "roll": "RLL", "rate": "RT", "setpoint": "SP", "feedback": "FB",
        "cutoff": "CUT", "drive": "DRV", "throttle": "THR", "sensor": "SNS", "timeout": "TMO", "overrun": "OVR",
        "limit": "LIM", "heading": "HDG", "angle": "ANG", "kp": "P", "ki": "I", "kd": "D",
        "speed": "SPD", "acceleration": "ACC", "turn": "TRN", "feedforward": "FF", "wheel": "WHL", "radius": "RAD",
        "encoders": "ENC", "deadband": "DBND", "compensation": "COMP",
    ]

    /// `text` with every `phrase` replaced by `replacement`.
    static func replacing(_ phrase: String, with replacement: String, in text: String) -> String {
        let target = Array(phrase.utf8), bytes = Array(text.utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return text }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + target.count <= bytes.count, Array(bytes[index..<index + target.count]) == target {
                out += Array(replacement.utf8)
                index += target.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ASCII letters in upper case (key paths are ASCII).
    static func upperCased(_ word: String) -> String {
        String(decoding: word.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}

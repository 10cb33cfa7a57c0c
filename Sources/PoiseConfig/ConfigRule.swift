/// A check across keys, run once every key is valid on its own.
///
/// Reported on the line of the first of `paths` the file actually sets (a default has no
/// line), so the message points at something the user wrote.
public struct ConfigRule: Sendable {
    /// `nil` for the whole file, or a list key whose every element is checked.
    public let list: String?
    /// Keys involved, relative to the element for list rules; the error names the one it is on.
    public let paths: [String]
    /// Returns what is wrong, or `nil`. Gets the element (or the whole file) and the whole file.
    public let check: @Sendable (_ scope: ConfigTable, _ root: ConfigTable) -> String?

    public init(list: String? = nil, paths: [String],
                check: @escaping @Sendable (_ scope: ConfigTable, _ root: ConfigTable) -> String?) {
        self.list = list
        self.paths = paths
        self.check = check
    }
}

extension ConfigSchema {
    /// Combinations that are each valid but make no sense together.
    public static let rules: [ConfigRule] = safetyRules + [
        busRule,
        // A quadrotor that flipped is on its back or in the air: it must never arm by itself.
        ConfigRule(paths: ["safety.rearm", "controller.kind"]) { file, _ in
            guard file.string("safety.rearm") == "when_level", file.string("controller.kind").hasPrefix("quad") else { return nil }
            return "safety.rearm: when_level is not allowed for a quadrotor: "
                + "controller.kind: \(file.string("controller.kind")) never re-arms by itself after a failsafe (use safety.arm_source: switch and cycle the switch)"
        },
        sampleRateRule,
        ConfigRule(paths: ["frame.output", "filter.magnetometer", "sensor.magnetometer"]) { file, _ in
            FrameMagnetometerRule.problem(frame: file.string("frame.output"), sensorMagnetometer: file.boolean("sensor.magnetometer"),
                                          fusesMagnetometer: file.boolean("filter.magnetometer"))
        },
        ConfigRule(paths: ["filter.magnetometer", "sensor.magnetometer"]) { file, _ in
            guard file.boolean("filter.magnetometer"), !file.boolean("sensor.magnetometer") else { return nil }
            return "filter.magnetometer is true but sensor.magnetometer is false; set filter.magnetometer: false for 6D fusion"
        },
        // Calibration values a real MPU-9250 cannot produce: beyond the chip's full scale,
        // beyond Float (the filters' type), or a scale or soft-iron matrix that erases an axis.
        // Such a file would make `probe` and the filters print nan and inf.
        ConfigRule(paths: ["sensor.calibration.gyroscope_bias"]) { file, _ in
            CalibrationLimits.outside(file.vector3("sensor.calibration.gyroscope_bias"), limit: CalibrationLimits.gyroscopeBias,
                                      unit: "rad/s", reason: "beyond the gyroscope's ±2000 °/s full scale")
        },
        ConfigRule(paths: ["sensor.calibration.accelerometer_offset"]) { file, _ in
            CalibrationLimits.outside(file.vector3("sensor.calibration.accelerometer_offset"), limit: CalibrationLimits.accelerometerOffset,
                                      unit: "m/s²", reason: "beyond the accelerometer's ±16 g full scale")
        },
        ConfigRule(paths: ["sensor.calibration.accelerometer_scale"]) { file, _ in
            let scale = file.vector3("sensor.calibration.accelerometer_scale")
            let range = CalibrationLimits.accelerometerScale
            guard let bad = (0..<3).first(where: { !range.contains(scale[$0]) }) else { return nil }
            return "\(CalibrationLimits.axis(bad)) = \(scale[bad]) is not a plausible calibration factor "
                + "(allowed: \(range.lowerBound)…\(range.upperBound); 1 means no correction)"
        },
        ConfigRule(paths: ["sensor.calibration.magnetometer_hard_iron"]) { file, _ in
            CalibrationLimits.outside(file.vector3("sensor.calibration.magnetometer_hard_iron"), limit: CalibrationLimits.hardIron,
                                      unit: "µT", reason: "beyond the magnetometer's ±4912 µT full scale")
        },
        ConfigRule(paths: ["sensor.calibration.magnetometer_soft_iron"]) { file, _ in
            let m = file.matrix3("sensor.calibration.magnetometer_soft_iron")
            for row in 0..<3 {
                for column in 0..<3 where !(abs(m[row: row][column]) <= CalibrationLimits.softIronEntry) {
                    return "[\(row)][\(column)] = \(m[row: row][column]) is not a plausible correction "
                        + "(allowed: |entry| ≤ \(CalibrationLimits.softIronEntry); the identity means no correction)"
                }
            }
            let (a, b, c) = (m[row: 0], m[row: 1], m[row: 2])
            let determinant = a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
            guard abs(determinant) < CalibrationLimits.softIronDeterminant else { return nil }
            return "the matrix is singular (determinant \(determinant)): it would erase a direction of the field"
        },
    ] + outputRules + faultRules + plantRules + inputRules
}

/// Bounds of a plausible sensor calibration (MPU-9250 / AK8963 full scales, with margin).
enum CalibrationLimits {
    /// 2000 °/s, rad/s.
    static let gyroscopeBias = 34.91
    /// 16 g, m/s².
    static let accelerometerOffset = 156.9
    static let accelerometerScale: ClosedRange<Double> = 0.5...2
    /// The AK8963's full scale, µT.
    static let hardIron = 4912.0
    static let softIronEntry = 10.0
    static let softIronDeterminant = 1e-6

    static func axis(_ index: Int) -> String { ["x", "y", "z"][index] }

    /// The message for the first component beyond ±`limit`, or nil.
    static func outside(_ v: SIMD3<Double>, limit: Double, unit: String, reason: String) -> String? {
        guard let bad = (0..<3).first(where: { !(abs(v[$0]) <= limit) }) else { return nil }
        return "\(axis(bad)) = \(v[bad]) \(unit) is \(reason) (allowed: ±\(limit) \(unit))"
    }
}

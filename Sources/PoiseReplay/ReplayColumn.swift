/// Optional groups of columns `poise replay --columns` adds after
/// `t,qw,qx,qy,qz,roll,pitch,yaw`. Units as in Core Motion's `CMDeviceMotion`, but SI.
public enum ReplayColumn: String, Sendable, CaseIterable {
    /// Gravity in the body frame, m/s² (points down: `(0, 0, −9.81)` lying flat face up).
    case gravity
    /// Acceleration the user gives the device, body frame, m/s² (zero at rest).
    case userAcceleration = "user_acceleration"
    /// Gyroscope rate with the estimated bias removed, body frame, rad/s.
    case rotationRate = "rotation_rate"
    /// Magnetometer reading, body frame, µT (empty in 6D).
    case magneticField = "magnetic_field"
    /// Compass heading of where the device points (its top edge lying flat, its back standing
    /// upright), degrees clockwise from magnetic north in [0, 360); empty when the output
    /// frame is not north-referenced, the run is 6D, or the device points straight up/down.
    case heading
    /// Angle between the body z axis and vertical, radians.
    case tilt
    /// Estimated gyroscope bias, rad/s, and its one-sigma uncertainty (empty when unknown).
    case bias
    /// Hard-iron offset the filter has learned and subtracts from the magnetometer, µT, body
    /// frame (zero when it learns none; `magnetic_field` shows the readings before it).
    case hardIron = "hard_iron"
    /// Gyroscope scale-factor error the filter has learned, per axis, dimensionless (0.01: the
    /// axis reads 1 % high; zero when it learns none).
    case gyroscopeScale = "gyro_scale"
    /// How much older the magnetometer's readings are than the gyroscope's, as the filter has
    /// learned it, seconds (zero when it learns none).
    case magnetometerLatency = "mag_latency"
    /// Filter status: flag bits (see README) and the count of rejected samples so far.
    case status
    /// Device orientation from gravity (portrait, faceUp, …), with hysteresis.
    case orientation
    /// The trace's ground truth in the same output frame: quaternion and Euler angles.
    case truth

    /// The CSV header names this group adds.
    public var headers: [String] {
        switch self {
        case .gravity: ["gravity_x", "gravity_y", "gravity_z"]
        case .userAcceleration: ["user_acceleration_x", "user_acceleration_y", "user_acceleration_z"]
        case .rotationRate: ["rotation_rate_x", "rotation_rate_y", "rotation_rate_z"]
        case .magneticField: ["magnetic_field_x", "magnetic_field_y", "magnetic_field_z"]
        case .heading: ["heading"]
        case .tilt: ["tilt"]
        case .bias: ["bias_x", "bias_y", "bias_z", "bias_sigma"]
        case .hardIron: ["hard_iron_x", "hard_iron_y", "hard_iron_z"]
        case .gyroscopeScale: ["gyro_scale_x", "gyro_scale_y", "gyro_scale_z"]
        case .magnetometerLatency: ["mag_latency"]
        case .status: ["flags", "rejected"]
        case .orientation: ["orientation"]
        case .truth: ["true_qw", "true_qx", "true_qy", "true_qz", "true_roll", "true_pitch", "true_yaw"]
        }
    }

    /// Parses a comma-separated list such as `gravity,heading` (`all` selects every group).
    public static func parseList(_ text: String) throws(ReplayError) -> [ReplayColumn] {
        var result: [ReplayColumn] = []
        for name in text.split(separator: ",").map({ $0.trimmingSpaces }) where !name.isEmpty {
            if name == "all" { return allCases }
            guard let column = ReplayColumn(rawValue: name) else {
                throw ReplayError("unknown column group '\(name)' (allowed: all, "
                    + allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            if !result.contains(column) { result.append(column) }
        }
        return result
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// A replay problem that is not a trace-file error (bad options, output failures).
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

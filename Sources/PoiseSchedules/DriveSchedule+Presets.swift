/// Drive scripts built into `poise`, chosen with `controller.balance.setpoint_file:
/// preset:NAME`.
extension DriveSchedule {
    /// The prefix that names a built-in script instead of a file.
    public static let presetPrefix = "preset:"

    /// The default drive script: accelerate at 0.5 m/s² to a 0.5 m/s cruise,
    /// turn left 90° at 45°/s while cruising, brake at 0.5 m/s² to a stop, stand. The speed
    /// steps become ramps through `controller.balance.max_acceleration_m_s2` (0.5 by default).
    /// It starts 4 s in: the simulated robot arms after the gyroscope's start-up bias.
    public static let defaultScript = """
        # Poise's default drive script: accelerate, cruise, turn left 90°, brake, stand.
        time_s,speed_m_s,turn_rate_deg_s
        0,0,0
        4,0.5,0
        7,0.5,45
        9,0.5,0
        11,0,0
        """

    /// The built-in scripts by name.
    public static let presets: [String: String] = ["default": defaultScript]

    /// The built-in script `name` names, if any.
    public static func preset(named name: String) -> DriveSchedule? {
        guard let text = presets[name] else { return nil }
        return try? DriveSchedule(path: presetPrefix + name, text: text)
    }
}

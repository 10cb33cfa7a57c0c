/// The rule tying the output frame to the magnetometer: the north-referenced Core Motion
/// frames need a fused magnetometer. `poise check` applies it to `frame.output`, and the
/// commands whose flags override those keys (`replay --frame … --mag …`) apply it too.
public enum FrameMagnetometerRule {
    /// What is wrong with reporting in `frame` (a `frame.output` name), or nil.
    /// - Parameter fuseSetting: what the user sets to fuse the magnetometer, for the message.
    public static func problem(frame: String, sensorMagnetometer: Bool, fusesMagnetometer: Bool,
                               fuseSetting: String = "filter.magnetometer: true") -> String? {
        guard frame.lowercased() == "xmagneticnorthzvertical" || frame.lowercased() == "xtruenorthzvertical" else { return nil }
        if !sensorMagnetometer { return "`\(frame)` needs sensor.magnetometer: true" }
        if !fusesMagnetometer { return "`\(frame)` needs \(fuseSetting)" }
        return nil
    }
}

import PoiseConfig

/// How `poise plot` draws a column: its unit, the conversion into it and the axis.
/// Units are those of the trace format and of `poise replay --columns`.
struct PlotColumnKind {
    /// The y-axis label, the column's name with its unit: `gx (rad/s)`.
    let axisLabel: String
    /// The cell's value as drawn.
    let value: @Sendable (Double) -> Double
    var range: ClosedRange<Double>?
    var tickStep: Double?
    /// 360 for angles drawn in degrees: the line breaks at the wrap instead of crossing the panel.
    var wrapPeriod: Double?

    /// - Parameter outputs: the output channels of the config that made a recording: its
    ///   `out_NAME` columns are then drawn in their channel's unit.
    init(_ column: String, outputs: PoiseConfiguration.Outputs? = nil) {
        let base = column.hasPrefix("true_") ? String(column.dropFirst(5)) : column
        if column.hasPrefix("out_"), let outputs,
           let channel = outputs.channels.first(where: { "out_" + $0.name == column }) {
            if let period = SimulationOutputPanels.dutyPeriodMicroseconds(channel, outputs) {
                axisLabel = "\(column) (duty %)"
                value = { $0 / period * 100 }
            } else {
                axisLabel = channel.kind == .gpio ? "\(column) (level)" : "\(column) (µs high time)"
                value = { $0 }
            }
            return
        }
        switch base {
        case "roll", "pitch", "yaw", "tilt":
            axisLabel = "\(column) (°)"
            value = { $0 * 180 / .pi }
            wrapPeriod = 360
        case "heading":
            // Degrees clockwise from north in [0, 360); Core Motion's −1 (no heading) is a gap.
            axisLabel = "\(column) (°, clockwise from north)"
            value = { $0 < 0 ? .nan : $0.truncatingRemainder(dividingBy: 360) }
            range = 0...360
            tickStep = 90
            wrapPeriod = 360
        default:
            let unit = Self.unit(of: base)
            axisLabel = unit.map { "\(column) (\($0))" } ?? column
            value = { $0 }
        }
    }

    private static func unit(of column: String) -> String? {
        let prefixes: [(String, String)] = [
            ("gravity_", "m/s²"), ("user_acceleration_", "m/s²"), ("rotation_rate_", "rad/s"), ("bias_", "rad/s"),
            ("magnetic_field_", "µT"), ("hard_iron_", "µT"), ("out_", "µs high time, or GPIO level; --config for duty"),
        ]
        if let unit = prefixes.first(where: { column.hasPrefix($0.0) })?.1 { return unit }
        switch column {
        case "ax", "ay", "az": return "m/s²"
        case "gx", "gy", "gz": return "rad/s"
        case "mx", "my", "mz": return "µT"
        case "mag_latency", "tick_t": return "s"
        default: return nil
        }
    }
}

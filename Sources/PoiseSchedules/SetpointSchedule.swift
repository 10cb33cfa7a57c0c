import PoiseControl
import PoiseTraces

/// Quadrotor setpoints over time from `controller.quad.setpoint_file` (or one fixed test
/// throttle), held between rows. Parsed at start-up; the table is allocated once, so looking
/// up a setpoint in the tick allocates nothing.
public struct SetpointSchedule: @unchecked Sendable {
    let times: UnsafeMutableBufferPointer<Double>
    let setpoints: UnsafeMutableBufferPointer<QuadSetpoint>
    var index = 0

    /// A constant setpoint: level at `throttle`.
    public init(throttle: Float) {
        times = .allocate(capacity: 1)
        times[0] = 0
        setpoints = .allocate(capacity: 1)
        setpoints[0] = QuadSetpoint(thrust: throttle)
    }

    /// The header a setpoint file starts with.
    public static let header = ["time_s", "throttle", "pitch_deg", "roll_deg", "heading_deg"]
    /// The largest pitch and roll a file may ask for, degrees.
    public static let tiltLimit = 60.0
    /// The largest setpoint file read, bytes (hours of rows at 10 Hz).
    public static let maximumFileBytes = 64 << 20

    /// Reads `time_s,throttle,pitch_deg,roll_deg,heading_deg` rows with ``ScheduleReader``
    /// (header required, times rising, `#` comment lines and blank lines skipped). Errors carry
    /// FILE:LINE:COLUMN, the column that of the offending field's first character.
    public init(path: String, text: String) throws(TraceError) {
        var rows: [(Double, QuadSetpoint)] = []
        for row in try ScheduleReader.rows(path: path, text: text, header: Self.header, name: "setpoint", rowName: "setpoint") {
            let v = row.values
            guard (0...1).contains(v[1]) else { throw row.error(field: 1, "throttle \(v[1]) is outside 0…1") }
            for (field, axis) in [(2, "pitch"), (3, "roll")] where abs(v[field]) > Self.tiltLimit {
                throw row.error(field: field, "\(axis) \(v[field])° is beyond ±\(Self.tiltLimit)°")
            }
            let r = Double.pi / 180
            rows.append((v[0], QuadSetpoint(thrust: Float(v[1]), pitch: Float(v[2] * r), roll: Float(v[3] * r), heading: Float(v[4] * r))))
        }
        times = .allocate(capacity: rows.count)
        setpoints = .allocate(capacity: rows.count)
        for (i, row) in rows.enumerated() {
            times[i] = row.0
            setpoints[i] = row.1
        }
    }

    /// The setpoint in force at `time` (the first row's before it starts).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func value(at time: Double) -> QuadSetpoint {
        while index + 1 < times.count && times[index + 1] <= time { index += 1 }
        return setpoints[index]
    }
}

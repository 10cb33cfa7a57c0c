import PoiseControl
import PoiseTraces

/// A balancing robot's drive setpoints over time from `controller.balance.setpoint_file`,
/// held between rows (the controller's acceleration limit turns speed steps into ramps).
/// Parsed at start-up; the table is allocated once, so looking up a setpoint in the tick
/// allocates nothing. The quadrotor's ``SetpointSchedule`` is the same idea.
public struct DriveSchedule: @unchecked Sendable {
    let times: UnsafeMutableBufferPointer<Double>
    let setpoints: UnsafeMutableBufferPointer<DriveSetpoint>
    var index = 0

    /// The header a drive script starts with.
    public static let header = ["time_s", "speed_m_s", "turn_rate_deg_s"]
    /// The largest speed and turn rate a script may ask for, m/s and °/s.
    public static let speedLimit = 5.0, turnRateLimit = 720.0

    /// Standing still.
    public init() {
        self.init(rows: [(0, DriveSetpoint())])
    }

    public init(rows: [(Double, DriveSetpoint)]) {
        times = .allocate(capacity: rows.count)
        setpoints = .allocate(capacity: rows.count)
        for (i, row) in rows.enumerated() {
            times[i] = row.0
            setpoints[i] = row.1
        }
    }

    /// Reads `time_s,speed_m_s,turn_rate_deg_s` rows with ``ScheduleReader`` (header required,
    /// times rising, `#` comment lines and blank lines skipped). Errors carry FILE:LINE:COLUMN,
    /// the column that of the offending field's first character.
    public init(path: String, text: String) throws(TraceError) {
        var rows: [(Double, DriveSetpoint)] = []
        for row in try ScheduleReader.rows(path: path, text: text, header: Self.header, name: "drive script", rowName: "drive setpoint") {
            let (time, speed, turnRate) = (row.values[0], row.values[1], row.values[2])
            guard abs(speed) <= Self.speedLimit else {
                throw row.error(field: 1, "speed \(speed) m/s is beyond ±\(Self.speedLimit) m/s")
            }
            guard abs(turnRate) <= Self.turnRateLimit else {
                throw row.error(field: 2, "turn rate \(turnRate) °/s is beyond ±\(Self.turnRateLimit) °/s")
            }
            rows.append((time, DriveSetpoint(speed: Float(speed), turnRate: Float(turnRate * .pi / 180))))
        }
        self.init(rows: rows)
    }

    /// Rows in the table.
    public var count: Int { times.count }

    /// The setpoint in force at `time`, s since the loop started (the first row's before it starts).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func value(at time: Double) -> DriveSetpoint {
        while index + 1 < times.count && times[index + 1] <= time { index += 1 }
        return setpoints[index]
    }
}

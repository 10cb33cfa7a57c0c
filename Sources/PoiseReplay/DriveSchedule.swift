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

    init(rows: [(Double, DriveSetpoint)]) {
        times = .allocate(capacity: rows.count)
        setpoints = .allocate(capacity: rows.count)
        for (i, row) in rows.enumerated() {
            times[i] = row.0
            setpoints[i] = row.1
        }
    }

    /// Reads `time_s,speed_m_s,turn_rate_deg_s` rows (header required, times rising, `#`
    /// comment lines and blank lines skipped). Errors carry FILE:LINE:COLUMN, the column
    /// that of the offending field's first character.
    public init(path: String, text: String) throws(TraceError) {
        var rows: [(Double, DriveSetpoint)] = []
        var lineNumber = 0
        var header = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = Self.fields(of: line)
            if header {
                guard fields.map(\.text) == Self.header else {
                    throw TraceError(file: path, line: lineNumber, column: fields[0].column,
                                     message: "drive script header must be \(Self.header.joined(separator: ","))")
                }
                header = false
                continue
            }
            guard fields.count == 3 else {
                throw TraceError(file: path, line: lineNumber, column: fields[fields.count > 3 ? 3 : fields.count - 1].column,
                                 message: "expected 3 fields, got \(fields.count)")
            }
            var values: [Double] = []
            for field in fields {
                guard let v = Double(field.text), v.isFinite else {
                    throw TraceError(file: path, line: lineNumber, column: field.column, message: "`\(field.text)` is not a finite number")
                }
                values.append(v)
            }
            if let last = rows.last, values[0] <= last.0 {
                throw TraceError(file: path, line: lineNumber, column: fields[0].column, message: "times must rise (\(values[0]) after \(last.0))")
            }
            guard abs(values[1]) <= Self.speedLimit else {
                throw TraceError(file: path, line: lineNumber, column: fields[1].column,
                                 message: "speed \(values[1]) m/s is beyond ±\(Self.speedLimit) m/s")
            }
            guard abs(values[2]) <= Self.turnRateLimit else {
                throw TraceError(file: path, line: lineNumber, column: fields[2].column,
                                 message: "turn rate \(values[2]) °/s is beyond ±\(Self.turnRateLimit) °/s")
            }
            rows.append((values[0], DriveSetpoint(speed: Float(values[1]), turnRate: Float(values[2] * .pi / 180))))
        }
        guard !rows.isEmpty else {
            throw TraceError(file: path, line: lineNumber, column: 1, message: header ? "no drive script header" : "no drive setpoint rows")
        }
        self.init(rows: rows)
    }

    /// The comma-separated fields of a line, trimmed, each with its 1-based column.
    static func fields(of line: Substring) -> [(text: String, column: Int)] {
        var fields: [(text: String, column: Int)] = []
        var column = 1
        for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
            let leading = cell.prefix { $0 == " " || $0 == "\t" }.count
            fields.append((cell.trimmingCharacters(in: " \t\r"), column + leading))
            column += cell.count + 1
        }
        return fields
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

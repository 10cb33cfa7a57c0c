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

    /// Reads `time_s,throttle,pitch_deg,roll_deg,heading_deg` rows (header required, times
    /// rising). Errors carry FILE:LINE.
    public init(path: String, text: String) throws(TraceError) {
        var rows: [(Double, QuadSetpoint)] = []
        var lineNumber = 0
        var header = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let cells = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: " \t") }
            if header {
                let expected = ["time_s", "throttle", "pitch_deg", "roll_deg", "heading_deg"]
                guard cells == expected else {
                    throw TraceError(file: path, line: lineNumber, column: 1,
                                     message: "setpoint header must be \(expected.joined(separator: ","))")
                }
                header = false
                continue
            }
            guard cells.count == 5 else {
                throw TraceError(file: path, line: lineNumber, column: 1, message: "expected 5 fields, got \(cells.count)")
            }
            var values: [Double] = []
            for (column, cell) in cells.enumerated() {
                guard let v = Double(cell), v.isFinite else {
                    throw TraceError(file: path, line: lineNumber, column: column + 1, message: "`\(cell)` is not a finite number")
                }
                values.append(v)
            }
            if let last = rows.last, values[0] <= last.0 {
                throw TraceError(file: path, line: lineNumber, column: 1, message: "times must rise (\(values[0]) after \(last.0))")
            }
            guard (0...1).contains(values[1]) else {
                throw TraceError(file: path, line: lineNumber, column: 2, message: "throttle \(values[1]) is outside 0…1")
            }
            guard abs(values[2]) <= 60, abs(values[3]) <= 60 else {
                throw TraceError(file: path, line: lineNumber, column: 3, message: "pitch and roll setpoints must be within ±60°")
            }
            let r = Double.pi / 180
            rows.append((values[0], QuadSetpoint(thrust: Float(values[1]), pitch: Float(values[2] * r),
                                                 roll: Float(values[3] * r), heading: Float(values[4] * r))))
        }
        guard !rows.isEmpty else { throw TraceError(file: path, line: lineNumber, column: 1, message: "no setpoint rows") }
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

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}

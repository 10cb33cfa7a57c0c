import PoiseControl
import PoiseMath
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseSensors
import PoiseTraces

/// The replay of a `poise run` recording (or any trace with `--ticks`): every row is one tick
/// of the same ``FlightCore`` the live loop runs — the sensor replaced by the trace, the
/// outputs captured — written in the recording's own format, with one column per output
/// channel. The host's `poise replay` (PoiseReplay's `TickReplay`) and the board's
/// `poise-board replay --config` both run this loop, with settings resolved from the YAML
/// configuration on the host and read from the compiled file on the board.
///
/// What a recording cannot carry: a SIGHUP reload during the run (every tick runs with the
/// settings given), and a setpoint file's rows (only the built-in drive scripts replay).
public enum TickReplayLoop {
    public struct Summary: Sendable {
        public var ticks: Int
        public var samples: Int
    }

    /// Replays every row of `reader` through the tick into `output` (`-`: standard output; a
    /// `.ptrace` name writes the binary format).
    public static func run(settings: FlightSettings, reader: consuming TraceReader, output: String) throws(TraceError) -> Summary {
        var work = TickReplayWork(settings: settings, reader: reader, output: output)
        return try settings.filter.run(&work)
    }
}

struct TickReplayWork: FilterKindWork, ~Copyable {
    typealias Failure = TraceError
    let settings: FlightSettings
    var reader: TraceReader
    let output: String

    init(settings: FlightSettings, reader: consuming TraceReader, output: String) {
        self.settings = settings
        self.reader = reader
        self.output = output
    }

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws(TraceError) -> TickReplayLoop.Summary {
        reader.skipsTicksWithoutSample = false
        var core = settings.core(filter: filter)
        let pilot = RecordingColumns.PilotColumns(columns: reader.columns)
        // The filtered gyroscope when the input has it, so a recording without it replays as it did.
        let columns = RecordingColumns(channels: settings.channels, magnetometer: reader.layout.hasMagnetometer,
                                       truth: reader.layout.hasTruth, pilot: pilot,
                                       filteredGyro: RecordingColumns.filteredGyroNames.allSatisfy(reader.columns.contains))
        var metadata = reader.metadata
        metadata.set("replayed", "tick")
        metadata.set("estimate", settings.filter.kind.rawValue)
        // A plain trace's readings get the configuration's calibration, as the live driver
        // applies it; a recording's are calibrated already (`# calibrated=yes`).
        let calibration = ReplayCalibration.applied(settings.calibration, to: reader.metadata)
        if calibration != nil { metadata.set(ReplayCalibration.traceMetadataKey, "yes") }
        var writer = try TraceWriter(path: output, format: TraceWriter.format(forPath: output) ?? .csv,
                                     metadata: metadata, columns: columns.names)
        let names = reader.columns
        func column(_ name: String) -> Int { names.firstIndex(of: name) ?? -1 }
        let tickTime = column("tick_t"), sampleFlag = column("sample"), readFailed = column("read_failed")
        let sensorState = column("sensor_state"), overrun = column("overrun_streak"), stop = column("stop")
        let outputFault = column("output_fault"), event = column("event")
        let clipped = column("gyro_clipped"), stall = column("stall_ms")
        // A pilot's live setpoints, as the run's ticks were handed them.
        let received = column("sp_rx_t"), late = column("late_ms"), compute = column("compute_ms"), trueSpeed = column("true_speed")
        let speed = column("sp_speed"), turnRate = column("sp_turn_rate")
        let roll = column("sp_roll"), pitch = column("sp_pitch"), yawRate = column("sp_yaw_rate"), thrust = column("sp_thrust")
        let quadSetpoint = QuadSetpoint(thrust: settings.setpoints.quadThrottle)
        // A built-in drive script replays as it ran; a file's rows are not in the recording.
        var drive = DriveScriptCursor(rows: settings.setpoints.driveScript)
        var ticks = 0, samples = 0
        while var row = try reader.next() {
            func value(_ index: Int, _ fallback: Double) throws(TraceError) -> Double {
                index >= 0 ? try reader.doubleValue(ofColumn: index) : fallback
            }
            let hasSample = try value(sampleFlag, 1) != 0
            let state: SensorState = switch try value(sensorState, 1) { case 0: .starting; case 2: .lost; default: .running }
            var sample: SensorSample? = nil
            if hasSample {
                if let calibration { row = ReplayCalibration.corrected(row, by: calibration) }
                sample = SensorSample(accelerometer: row.accelerometer, gyroscope: row.gyroscope,
                                      magnetometer: row.magnetometer, magnetometerIsNew: false, temperature: 0,
                                      saturated: false, gyroscopeClipped: try value(clipped, 0) != 0)
                samples += 1
            }
            var reading = SensorReading(sample: sample, time: row.time, state: state,
                                        readFailed: try value(readFailed, 0) != 0)
            if let truth = row.truth { reading.truth = truth }
            let now = try value(tickTime, row.time)
            var status = LoopStatus()
            status.overrunStreak = Int(try value(overrun, 0))
            status.stopRequested = try value(stop, 0) != 0
            status.unexpectedError = try value(outputFault, 0) != 0
            // A stall as recorded; before `stall_ms` was, it is known only where it was the event
            // (an armed tick).
            if stall >= 0 {
                status.stallNanoseconds = Int64((try value(stall, 0) * 1e6).rounded())
            } else if try value(event, 0) == Double(SafetyReason.stall.rawValue) {
                status.stallNanoseconds = 1
            }
            // The driver's chip-reset notice is not recorded; the event it caused is.
            if try value(event, 0) == Double(SafetyReason.chipReset.rawValue) { reading.notices.kinds.insert(.chipReset) }
            // The ground station's and the gamepad's arm requests and a setpoint loss are known by the events they caused.
            switch SafetyReason(rawValue: UInt8(clamping: Int(try value(event, 0)))) {
            case .commandArmed, .gamepadArmed: status.armCommand = .arm
            case .commandDisarmed, .gamepadDisarmed: status.armCommand = .disarm
            case .setpointLost: status.setpointLost = true
            default: break
            }
            status.quadSetpoint = quadSetpoint
            status.driveSetpoint = drive.value(at: now)
            switch pilot {
            case .none: break
            case .drive:
                status.driveSetpoint = DriveSetpoint(speed: Float(try value(speed, 0)), turnRate: Float(try value(turnRate, 0)))
                if trueSpeed >= 0 { reading.trueSpeed = Float(try value(trueSpeed, .nan)) }
            case .quad:
                status.quadSetpoint.roll = Float(try value(roll, 0))
                status.quadSetpoint.pitch = Float(try value(pitch, 0))
                status.quadSetpoint.yawRate = Float(try value(yawRate, 0))
                status.quadSetpoint.thrust = Float(try value(thrust, 0))
            }
            let out = core.tick(reading, loop: status)
            var record = TickRecord()
            record.set(tick: UInt64(ticks), tickTime: now, reading: reading, loop: status, core: core, output: out)
            if pilot != .none {
                record.pilotReceivedTime = try value(received, .nan)
                record.latenessNanoseconds = Int64((try value(late, 0) * 1e6).rounded())
                record.computeNanoseconds = Int64((try value(compute, 0) * 1e6).rounded())
            }
            columns.write(record, to: &writer)
            ticks += 1
        }
        try writer.close()
        return TickReplayLoop.Summary(ticks: ticks, samples: samples)
    }
}

/// A drive script's setpoint at a time, held between rows (the first row's before it starts;
/// standing still without rows); times only move forward.
struct DriveScriptCursor {
    let rows: [DriveScriptRow]
    var index = 0

    init(rows: [DriveScriptRow]) { self.rows = rows }

    mutating func value(at time: Double) -> DriveSetpoint {
        guard !rows.isEmpty else { return DriveSetpoint() }
        while index + 1 < rows.count && rows[index + 1].time <= time { index += 1 }
        return rows[index].setpoint
    }
}

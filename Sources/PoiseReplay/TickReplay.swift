import PoiseConfig
import PoiseControl
import PoiseFusion
import PoiseOutputs
import PoiseSchedules
import PoiseSensors
import PoiseSettings
import PoiseFlightCore
import PoiseTraces
import PoiseMath

/// `poise replay` of a `poise run` recording (or any trace with `--ticks`): every row is
/// one tick of the same ``FlightCore`` the live loop runs — the sensor replaced by the
/// trace, the outputs captured — written in the recording's own format, with one column
/// per output channel. A recording replayed with the configuration it was made with gives
/// byte-identical estimates, arming states and outputs.
///
/// What a recording cannot carry: a SIGHUP reload during the run (the replay uses the
/// configuration given for every tick).
public enum TickReplay {
    public struct Summary: Sendable {
        public var ticks: Int
        public var samples: Int
    }

    public static func run(configuration: PoiseConfiguration, reader: consuming TraceReader,
                           output: String) throws -> Summary {
        var work = TickReplayWork(configuration: configuration, reader: reader, output: output)
        return try FilterChoice(configuration: configuration).run(&work)
    }
}

struct TickReplayWork: FilterWork, ~Copyable {
    let configuration: PoiseConfiguration
    var reader: TraceReader
    let output: String

    init(configuration: PoiseConfiguration, reader: consuming TraceReader, output: String) {
        self.configuration = configuration
        self.reader = reader
        self.output = output
    }

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> TickReplay.Summary {
        reader.skipsTicksWithoutSample = false
        let outputs = OutputBankSettings(configuration: configuration)
        var core = CoreConfiguration.core(configuration, filter: filter)
        let pilot = RecordingColumns.PilotColumns(columns: reader.columns)
        let columns = RecordingColumns(channels: outputs.channels, magnetometer: reader.layout.hasMagnetometer,
                                       truth: reader.layout.hasTruth, pilot: pilot)
        var metadata = reader.metadata
        metadata.set("replayed", "tick")
        metadata.set("estimate", FilterChoice(configuration: configuration).kind.rawValue)
        // A plain trace's readings get the configuration's calibration, as the live driver
        // applies it; a recording's are calibrated already (`# calibrated=yes`).
        let calibration = TraceFeed(configuration: configuration).calibration(for: reader.metadata)
        if calibration != nil { metadata.set(SensorCalibration.traceMetadataKey, "yes") }
        var writer = try TraceWriter(path: output, format: TraceWriter.format(forPath: output) ?? .csv,
                                     metadata: metadata, columns: columns.names)
        func column(_ name: String) -> Int { reader.columns.firstIndex(of: name) ?? -1 }
        let tickTime = column("tick_t"), sampleFlag = column("sample"), readFailed = column("read_failed")
        let sensorState = column("sensor_state"), overrun = column("overrun_streak"), stop = column("stop")
        let outputFault = column("output_fault"), event = column("event")
        let clipped = column("gyro_clipped"), stall = column("stall_ms")
        // A pilot's live setpoints, as the run's ticks were handed them.
        let received = column("sp_rx_t"), late = column("late_ms"), compute = column("compute_ms"), trueSpeed = column("true_speed")
        let speed = column("sp_speed"), turnRate = column("sp_turn_rate")
        let roll = column("sp_roll"), pitch = column("sp_pitch"), yawRate = column("sp_yaw_rate"), thrust = column("sp_thrust")
        var setpoints = SetpointSchedule(throttle: Float(configuration.controller.quad.throttle))
        // A built-in drive script replays as it ran; a file's rows are not in the recording.
        var drive = configuration.controller.drive.setpointFile.hasPrefix(DriveSchedule.presetPrefix)
            ? (try? DriveSchedule.forConfiguration(configuration, configPath: nil)) ?? DriveSchedule() : DriveSchedule()
        var ticks = 0, samples = 0
        while var row = try reader.next() {
            func value(_ index: Int, _ fallback: Double) throws -> Double {
                index >= 0 ? try reader.doubleValue(ofColumn: index) : fallback
            }
            let hasSample = try value(sampleFlag, 1) != 0
            let state: SensorState = switch try value(sensorState, 1) { case 0: .starting; case 2: .lost; default: .running }
            var sample: SensorSample? = nil
            if hasSample {
                if let calibration { row = calibration.corrected(row) }
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
            status.quadSetpoint = setpoints.value(at: now)
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
        return TickReplay.Summary(ticks: ticks, samples: samples)
    }
}

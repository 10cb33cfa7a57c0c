import PoiseControl
import PoiseFlightCore
import PoiseMath
import PoiseOutputs
import PoiseTraces

/// The columns of a `poise run --record` / `poise record` trace, one row per tick:
///
/// - `t`: the sample's time, s since start; `ax…gz` (and `mx…mz`): the calibrated body-frame
///   sample the filter got (empty on a tick without one); `qw…qz`: the simulated world's
///   true attitude (sim board only), so `poise eval` scores a simulated run;
/// - `tick_t` (the tick's scheduled time), `sample` (1: a new sample this tick; 0: the
///   sensor cells hold 0), `read_failed`, `sensor_state` (0 starting, 1 running, 2 lost),
///   `overrun_streak`, `stop`, `output_fault` — what the tick function saw besides the
///   sample, so `poise replay` re-runs the same ticks; `gyro_clipped` (1: a gyroscope axis
///   at the end of its range) and `stall_ms` (how late a stalled tick woke, 0 otherwise),
///   which make the filter re-establish its attitude (recordings without them replay as if
///   both were 0, a stall then taken from the `event` of an armed tick);
/// - `est_qw…est_qz`: the estimate (body-to-ENU); `arm`: 0 disarmed, 1 armed, 2 failsafe;
///   `event`: the `SafetyReason` of a transition this tick;
/// - `out_NAME` per output channel: µs of high time per period (PWM, PCA9685) or the
///   level (GPIO);
/// - with a pilot's live setpoints (the ground station's MANUAL_CONTROL, a gamepad;
///   ``PilotColumns``): `sp_rx_t`, when the setpoint in effect was received, s on the clock of
///   `tick_t` (empty before the first), `late_ms`, how late the tick woke after `tick_t`, and
///   `compute_ms`, how long it took to its outputs and record — so a recording shows how long
///   a setpoint took to reach the outputs — then the setpoint
///   the tick was handed: the balancing robot's `sp_speed` (m/s) and `sp_turn_rate` (rad/s)
///   with its `speed_est` (the controller's, m/s) and, simulated, `true_speed`; the quad's
///   `sp_roll`, `sp_pitch` (rad), `sp_yaw_rate` (rad/s) and `sp_thrust`. A replay takes the
///   setpoints from these columns (and the time columns as they are);
/// - with `filteredGyro` (a run whose `filter.gyro` low-pass or notches are on): `gfx,gfy,gfz`,
///   the gyroscope after those filters, rad/s — what the estimate and the loops were handed —
///   last, so `poise spectrum --signal filtered` measures what the filters took out. Such a
///   recording says `# recording_version=2`; one without them is version 1, and a replay
///   writes them only when its input has them.
public struct RecordingColumns: Sendable {
    public let names: [String]
    public let channelIsPulse: [Bool]
    public let magnetometer: Bool
    public let truth: Bool
    public let pilot: PilotColumns
    public let filteredGyro: Bool
    /// The filtered gyroscope's columns.
    public static let filteredGyroNames = ["gfx", "gfy", "gfz"]

    /// Which setpoint columns a recording of live setpoints has.
    public enum PilotColumns: Sendable {
        case none, drive, quad

        /// The group's column names (`truth`: the simulated robot's true speed too).
        public func names(truth: Bool) -> [String] {
            switch self {
            case .none: []
            case .drive: ["sp_rx_t", "late_ms", "compute_ms", "sp_speed", "sp_turn_rate", "speed_est"] + (truth ? ["true_speed"] : [])
            case .quad: ["sp_rx_t", "late_ms", "compute_ms", "sp_roll", "sp_pitch", "sp_yaw_rate", "sp_thrust"]
            }
        }

        /// The group a trace's columns hold.
        public init(columns: [String]) {
            self = columns.contains("sp_speed") ? .drive : columns.contains("sp_roll") ? .quad : .none
        }
    }

    public init(channels: [OutputChannelSpec], magnetometer: Bool, truth: Bool, pilot: PilotColumns = .none,
                filteredGyro: Bool = false) {
        var names = ["t", "ax", "ay", "az", "gx", "gy", "gz"]
        if magnetometer { names += ["mx", "my", "mz"] }
        if truth { names += ["qw", "qx", "qy", "qz"] }
        names += ["tick_t", "sample", "read_failed", "sensor_state", "overrun_streak", "stop", "output_fault",
                  "gyro_clipped", "stall_ms", "est_qw", "est_qx", "est_qy", "est_qz", "arm", "event"]
        names += channels.map { "out_" + $0.name }
        names += pilot.names(truth: truth)
        if filteredGyro { names += Self.filteredGyroNames }
        self.filteredGyro = filteredGyro
        self.names = names
        self.pilot = pilot
        channelIsPulse = channels.map { if case .gpio = $0.hardware { false } else { true } }
        self.magnetometer = magnetometer
        self.truth = truth
    }

    /// Writes one record as a row.
    public func write(_ r: TickRecord, to writer: inout TraceWriter) {
        writer.append(r.time)
        // A tick without a sample holds 0 in the required sensor cells (`sample` says so;
        // readers skip such rows by default) and leaves the magnetometer empty.
        for v in [r.accelerometer, r.gyroscope] {
            for i in 0..<3 { writer.append(r.sampleValid ? v[i] : 0) }
        }
        if magnetometer {
            for i in 0..<3 { r.sampleValid && r.magnetometer[i].isFinite ? writer.append(r.magnetometer[i]) : writer.appendEmpty() }
        }
        if truth {
            let q = r.truth
            if q.w.isFinite { writer.append(q.w); writer.append(q.x); writer.append(q.y); writer.append(q.z) }
            else { for _ in 0..<4 { writer.appendEmpty() } }
        }
        writer.append(r.tickTime)
        writer.append(Double(r.sampleValid ? 1 : 0))
        writer.append(Double(r.readFailed ? 1 : 0))
        writer.append(Double(r.sensorState.rawValue))
        writer.append(Double(r.overrunStreak))
        writer.append(Double(r.stopRequested ? 1 : 0))
        writer.append(Double(r.outputFaulted ? 1 : 0))
        writer.append(Double(r.gyroscopeClipped ? 1 : 0))
        writer.append(Double(r.stallNanoseconds) / 1e6)
        writer.append(r.attitude.w); writer.append(r.attitude.x); writer.append(r.attitude.y); writer.append(r.attitude.z)
        writer.append(Double(r.armState.rawValue))
        writer.append(Double(r.eventReason.rawValue))
        for index in 0..<channelIsPulse.count {
            let value = r.outputs[index]
            writer.append(channelIsPulse[index] ? Double(value) / 1000 : Double(value))
        }
        if pilot != .none {
            r.pilotReceivedTime.isFinite ? writer.append(r.pilotReceivedTime) : writer.appendEmpty()
            writer.append(Double(r.latenessNanoseconds) / 1e6)
            writer.append(Double(r.computeNanoseconds) / 1e6)
        }
        switch pilot {
        case .none: break
        case .drive:
            writer.append(r.drive.setpoint.speed)
            writer.append(r.drive.setpoint.turnRate)
            writer.append(r.drive.speedEstimate)
            if truth { r.drive.trueSpeed.isFinite ? writer.append(r.drive.trueSpeed) : writer.appendEmpty() }
        case .quad:
            writer.append(r.quadSetpoint.roll)
            writer.append(r.quadSetpoint.pitch)
            writer.append(r.quadSetpoint.yawRate)
            writer.append(r.quadSetpoint.thrust)
        }
        if filteredGyro {
            for i in 0..<3 {
                r.sampleValid && r.filteredGyroscope[i].isFinite ? writer.append(r.filteredGyroscope[i]) : writer.appendEmpty()
            }
        }
        writer.endRow()
    }
}

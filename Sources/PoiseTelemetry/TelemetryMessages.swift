import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseMath

/// The MAVLink message for each part of a tick record (units converted, frames mapped).
public enum TelemetryMessages {
    /// Sensor time as MAVLink's `time_boot_ms`, to the nearest ms (so 0.97 s is 970, not 969);
    /// wraps after 49 days, as MAVLink's does.
    public static func milliseconds(_ time: Double) -> UInt32 {
        time.isFinite && time > 0 ? UInt32(truncatingIfNeeded: UInt64((time * 1000).rounded())) : 0
    }

    /// HEARTBEAT: MAV_TYPE_GENERIC, MAV_AUTOPILOT_GENERIC. base_mode: MAV_MODE_FLAG_CUSTOM_MODE_ENABLED
    /// (custom_mode is Poise's own), and SAFETY_ARMED while armed. system_status STANDBY
    /// (disarmed), ACTIVE (armed), CRITICAL (failsafe, or `failedSafe`: a failsafe since the last
    /// heartbeat, however short), EMERGENCY (a latched failsafe: an unexpected error).
    /// custom_mode carries the arm state in bits 0–7 and the filter flags in bits 8–23.
    public static func heartbeat(_ record: TickRecord, failedSafe: Bool = false, latched: Bool = false) -> Heartbeat {
        var m = Heartbeat()
        m.type = 0
        m.autopilot = 0
        m.baseMode = customModeEnabled | (record.armState == .armed ? safetyArmed : 0)
        m.systemStatus = switch record.armState { case .armed: 4; case .failsafe: 5; case .disarmed: 3 }
        if failedSafe || record.armState == .failsafe { m.systemStatus = latched ? 6 : 5 }
        m.customMode = UInt32(record.armState.rawValue) | UInt32(record.filterFlags.rawValue) << 8
        return m
    }

    /// MAV_MODE_FLAG bits.
    public static let customModeEnabled: UInt8 = 1
    public static let safetyArmed: UInt8 = 128

    /// STATUSTEXT for an arming transition: CRITICAL for a failsafe, NOTICE for a disarm,
    /// INFO for arming and for the run's requested stop (`disarmed: stop requested`);
    /// `failsafe: tilt beyond safety.max_tilt_deg` (in 50-byte pieces).
    public static func transitionText(_ record: TickRecord, id: UInt16) -> [StatusText] {
        var severity: UInt8 = switch record.armState { case .failsafe: 2; case .disarmed: 5; case .armed: 6 }
        if record.eventReason == .stopRequested && record.armState == .disarmed { severity = 6 }
        return StatusText.pieces(severity: severity, text: "\(record.armState.name): \(record.eventReason.text)", id: id)
    }

    public static func attitude(_ record: TickRecord, world: WorldAxes) -> Attitude {
        let q = MAVLinkFrames.nedFromFRD(record.attitude, world: world)
        let angles = MAVLinkFrames.aircraftEuler(q)
        let rates = finite(MAVLinkFrames.frd(record.rotationRate))
        var m = Attitude()
        m.timeBootMs = milliseconds(record.time)
        m.roll = angles.roll; m.pitch = angles.pitch; m.yaw = angles.yaw
        m.rollSpeed = rates.x; m.pitchSpeed = rates.y; m.yawSpeed = rates.z
        return m
    }

    public static func attitudeQuaternion(_ record: TickRecord, world: WorldAxes) -> AttitudeQuaternion {
        let q = MAVLinkFrames.nedFromFRD(record.attitude, world: world)
        let rates = finite(MAVLinkFrames.frd(record.rotationRate))
        var m = AttitudeQuaternion()
        m.timeBootMs = milliseconds(record.time)
        m.q1 = q.w; m.q2 = q.x; m.q3 = q.y; m.q4 = q.z
        m.rollSpeed = rates.x; m.pitchSpeed = rates.y; m.yawSpeed = rates.z
        return m
    }

    /// SCALED_IMU in FRD: acceleration mG (specific force: −1000 on z when level), rates
    /// mrad/s, field mgauss (1 µT = 10 mgauss). Missing readings are 0.
    public static func scaledIMU(_ record: TickRecord) -> ScaledIMU {
        let a = MAVLinkFrames.frd(record.accelerometer) * Float(1000 / 9.80665)
        let g = MAVLinkFrames.frd(record.gyroscope) * 1000
        let b = MAVLinkFrames.frd(record.magnetometer) * 10
        var m = ScaledIMU()
        m.timeBootMs = milliseconds(record.time)
        m.xacc = int16(a.x); m.yacc = int16(a.y); m.zacc = int16(a.z)
        m.xgyro = int16(g.x); m.ygyro = int16(g.y); m.zgyro = int16(g.z)
        m.xmag = int16(b.x); m.ymag = int16(b.y); m.zmag = int16(b.z)
        return m
    }

    /// SERVO_OUTPUT_RAW: PWM high times ns → µs; level channels as 0/1; unused channels 0.
    public static func servoOutputRaw(_ record: TickRecord, levelChannels: UInt16) -> ServoOutputRaw {
        var m = ServoOutputRaw()
        m.timeUsec = UInt32(truncatingIfNeeded: UInt64((max(0, record.time.isFinite ? record.time : 0) * 1e6).rounded()))
        for i in 0 ..< min(record.outputs.count, 16) {
            let raw = record.outputs[i]
            m.servo[i] = levelChannels & (1 << i) != 0 ? UInt16(min(raw, 1)) : UInt16(min((raw + 500) / 1000, 65535))
        }
        return m
    }

    /// SYS_STATUS: 3D gyro, 3D accel (and 3D mag once seen) and AHRS present and enabled;
    /// healthy unless this tick had no valid sample / rejected input (gyro, accel), a magnetic
    /// disturbance (mag), or the filter is initialising (AHRS). load = compute / period;
    /// errors_count1 = tick records telemetry had to drop.
    public static func sysStatus(_ record: TickRecord, summary: LoopStatistics.Summary, magnetometer: Bool, dropped: UInt64) -> SysStatus {
        let gyro: UInt32 = 1, accel: UInt32 = 2, mag: UInt32 = 4, ahrs: UInt32 = 0x20_0000
        let present = gyro | accel | ahrs | (magnetometer ? mag : 0)
        var health = present
        if !record.sampleValid || record.filterFlags.contains(.inputRejected) { health &= ~(gyro | accel) }
        if record.filterFlags.contains(.magneticDisturbance) { health &= ~mag }
        if record.filterFlags.contains(.initialising) { health &= ~ahrs }
        var m = SysStatus()
        m.sensorsPresent = present
        m.sensorsEnabled = present
        m.sensorsHealth = health
        m.load = UInt16(min(max(summary.load * 1000, 0), 65535).rounded())
        m.errorsCount1 = UInt16(min(dropped, 65535))
        return m
    }

    /// Loop statistics and state as NAMED_VALUE_FLOATs: lateness and compute percentiles in µs
    /// (`late_p50`, `late_p99`, `late_max`, `comp_p50`, `comp_p99`, `comp_max`), `arm_state`
    /// (0 disarmed, 1 armed, 2 failsafe) and `filt_flags` (FilterFlags bits).
    public static func loopValues(_ s: LoopStatistics.Summary, record: TickRecord, timeBootMs: UInt32) -> [NamedValueFloat] {
        func us(_ ns: Int64) -> Float { Float(Double(ns) / 1000) }
        return [
            NamedValueFloat(name: "late_p50", value: us(s.latenessP50), timeBootMs: timeBootMs),
            NamedValueFloat(name: "late_p99", value: us(s.latenessP99), timeBootMs: timeBootMs),
            NamedValueFloat(name: "late_max", value: us(s.latenessMax), timeBootMs: timeBootMs),
            NamedValueFloat(name: "comp_p50", value: us(s.computeP50), timeBootMs: timeBootMs),
            NamedValueFloat(name: "comp_p99", value: us(s.computeP99), timeBootMs: timeBootMs),
            NamedValueFloat(name: "comp_max", value: us(s.computeMax), timeBootMs: timeBootMs),
            NamedValueFloat(name: "arm_state", value: Float(record.armState.rawValue), timeBootMs: timeBootMs),
            NamedValueFloat(name: "filt_flags", value: Float(record.filterFlags.rawValue), timeBootMs: timeBootMs),
        ]
    }

    static func finite(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(v.x.isFinite ? v.x : 0, v.y.isFinite ? v.y : 0, v.z.isFinite ? v.z : 0)
    }

    static func int16(_ v: Float) -> Int16 {
        v.isFinite ? Int16(min(max(v.rounded(), -32768), 32767)) : 0
    }
}

import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import Testing
import PoiseMath
import PoiseTelemetry

/// What the ground station reads about arming: HEARTBEAT flags, a failsafe held CRITICAL for a
/// heartbeat, STATUSTEXT per transition, bias-corrected ATTITUDE rates.
@Suite struct LinkStatusTests {
    func frames(_ records: [TickRecord], settings: TelemetrySettings = TelemetrySettings()) -> [MAVLinkFrame] {
        var stream = TelemetryStream(settings: settings)
        var out: [MAVLinkFrame] = []
        for r in records {
            stream.process(r) { if case .success(let (f, _)) = MAVLinkDecoder.decode(Array($0)) { out.append(f) } }
        }
        return out
    }

    func record(_ time: Double, _ state: ArmState, _ reason: SafetyReason = .none) -> TickRecord {
        var r = TickRecord()
        r.time = time
        r.sampleValid = true
        r.armState = state
        r.eventReason = reason
        return r
    }

    @Test func heartbeatFlagsSayCustomModeAndArmed() {
        let beats = frames([record(0, .disarmed), record(1, .armed)]).compactMap { f -> Heartbeat? in
            if case .heartbeat(let h) = f.packet { return h } else { return nil }
        }
        #expect(beats.map(\.baseMode) == [1, 129])
        #expect(beats.map(\.systemStatus) == [3, 4])
    }

    /// A failsafe of 50 ms between two heartbeats (1 Hz, at 0, 1 and 2 s) is still reported
    /// CRITICAL by the next one, though it has cleared by then.
    @Test func aShortFailsafeIsHeldCriticalForAHeartbeat() {
        var records: [TickRecord] = []
        for i in 0 ..< 300 {
            let t = Double(i) * 0.01
            let failsafe = t >= 1.2 && t < 1.25
            let reason: SafetyReason = t == 1.2 ? .sensorLost : (abs(t - 1.25) < 1e-9 ? .faultCleared : .none)
            records.append(record(t, failsafe ? .failsafe : .disarmed, reason))
        }
        let statuses = frames(records).compactMap { f -> UInt8? in
            if case .heartbeat(let h) = f.packet { return h.systemStatus } else { return nil }
        }
        #expect(statuses == [3, 3, 5])
    }

    @Test func everyTransitionGoesOutAsStatusText() {
        let texts = frames([record(0, .disarmed), record(0.01, .armed, .commandArmed), record(0.02, .failsafe, .tiltLimit)])
            .compactMap { f -> (UInt8, String)? in
                if case .statusText(let s) = f.packet { return (s.severity, MAVLinkText.string(s.text)) } else { return nil }
            }
        #expect(texts.map(\.1) == ["armed: arm command; level, healthy, converged", "failsafe: tilt beyond safety.max_tilt_deg"])
        #expect(texts.map(\.0) == [6, 2])
        // A longer one in 50-byte pieces that share an id.
        let long = StatusText.pieces(severity: 2, text: "failsafe: setpoints lost for telemetry.setpoint_timeout_ms", id: 9)
        #expect(long.map { MAVLinkText.string($0.text) } == ["failsafe: setpoints lost for telemetry.setpoint_ti", "meout_ms"])
        #expect(long.map(\.messageID) == [9, 9] && long.map(\.chunkSequence) == [0, 1])
    }

    @Test func attitudeRatesAreBiasCorrected() {
        var r = record(0, .disarmed)
        r.gyroscope = SIMD3(0.1, 0.2, 0.3)
        r.rotationRate = SIMD3(0.05, 0.15, 0.25)
        let a = TelemetryMessages.attitude(r, world: .enu)
        // FRD: roll rate = Poise y, pitch rate = Poise x, yaw rate = −Poise z.
        #expect(a.rollSpeed == 0.15 && a.pitchSpeed == 0.05 && a.yawSpeed == -0.25)
        let q = TelemetryMessages.attitudeQuaternion(r, world: .enu)
        #expect(q.rollSpeed == 0.15 && q.pitchSpeed == 0.05 && q.yawSpeed == -0.25)
    }
}

import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath
import PoiseTelemetry
@testable import PoiseView
import Testing

@Suite struct ViewStateTests {
    func frames(records: Int, settings: TelemetrySettings = TelemetrySettings()) -> [MAVLinkFrame] {
        var stream = TelemetryStream(settings: settings)
        var frames: [MAVLinkFrame] = []
        for i in 0 ..< records {
            var r = TickRecord()
            r.time = Double(i) / 100
            r.sampleValid = true
            r.armState = .armed
            r.attitude = Quaternion(EulerAngles(pitch: 0.1, roll: 0.2, yaw: 0.3))
            r.outputs = ChannelCommands(count: 2)
            r.outputs[0] = 1_234_000
            stream.process(r) { if case .success(let (f, _)) = MAVLinkDecoder.decode(Array($0)) { frames.append(f) } }
        }
        return frames
    }

    @Test func snapshotsCarryTheNewestOfEveryMessage() {
        var state = ViewState()
        var snapshots: [ViewSnapshot] = []
        for f in frames(records: 100) where state.apply(f, receivedAt: 5) { snapshots.append(state.snapshot) }
        #expect(snapshots.count == 50)  // ATTITUDE_QUATERNION at 50 Hz over 1 s
        let last = snapshots.last!
        #expect(last.arm == 1 && last.received == 5 && last.lostFrames == 0)
        // Every channel, the ones at 0 included (an output at its safe 0 is still drawn).
        #expect(last.servo == [1234] + [Int](repeating: 0, count: 15))
        #expect(last.values["comp_p99"] == 0 && last.sensorsPresent & 3 == 3)
        #expect(abs(last.time - 0.98) < 1e-9)
    }

    @Test func lostFramesAndGarbageAreCounted() {
        var state = ViewState()
        let all = frames(records: 50)
        for (i, f) in all.enumerated() where i != 3 && i != 4 { _ = state.apply(f, receivedAt: 0) }
        #expect(state.snapshot.lostFrames == 2)
        state.countBadDatagram()
        #expect(state.snapshot.badDatagrams == 1)
        // A sender that restarts (sequence back to 0) is not counted as ~200 lost frames.
        for f in frames(records: 5) { _ = state.apply(f, receivedAt: 0) }
        #expect(state.snapshot.lostFrames == 2)
    }

    @Test func aNewSenderDoesNotInheritTheOldOnesClock() {
        var state = ViewState()
        var framer = MAVLinkFramer(systemID: 1, componentID: 1)
        func frame<M: MAVLinkMessage>(_ m: M, _ framer: inout MAVLinkFramer) -> MAVLinkFrame {
            var buffer = [UInt8](repeating: 0, count: MAVLinkFramer.maximumFrameLength)
            let n = buffer.withUnsafeMutableBytes { framer.encode(m, into: $0) }
            guard case .success(let (f, _)) = MAVLinkDecoder.decode(Array(buffer[..<n])) else { fatalError("undecodable") }
            return f
        }
        var time = SystemTime()
        time.timeUnixUsec = 1_700_000_000_000_000
        time.timeBootMs = 5000
        var q = AttitudeQuaternion()
        q.timeBootMs = 6000
        _ = state.apply(frame(time, &framer), receivedAt: 0)
        _ = state.apply(frame(q, &framer), receivedAt: 0)
        #expect(state.snapshot.unixOffsetMs != nil)
        // The same sender restarted: its time starts again, without SYSTEM_TIME so far.
        q.timeBootMs = 100
        _ = state.apply(frame(q, &framer), receivedAt: 0)
        #expect(state.snapshot.unixOffsetMs == nil)
        // Another sender (another system id) takes over.
        _ = state.apply(frame(time, &framer), receivedAt: 0)
        var other = MAVLinkFramer(systemID: 2, componentID: 1)
        q.timeBootMs = 9000
        _ = state.apply(frame(q, &other), receivedAt: 0)
        #expect(state.snapshot.unixOffsetMs == nil && state.snapshot.systemID == 2)
    }
}

import PoiseControl
import PoiseMath
import PoiseTelemetry
import PoiseTick
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
        #expect(last.arm == 1 && last.servo == [1234] && last.received == 5 && last.lostFrames == 0)
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
}

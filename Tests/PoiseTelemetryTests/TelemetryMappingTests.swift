import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseThreads
import Testing
import PoiseMath
@testable import PoiseTelemetry

@Suite struct TelemetryMappingTests {
    func record(pitch: Float = 0, roll: Float = 0, yaw: Float = 0, time: Double = 1) -> TickRecord {
        var r = TickRecord()
        r.time = time
        r.sampleValid = true
        r.attitude = Quaternion(EulerAngles(pitch: pitch, roll: roll, yaw: yaw))
        r.gyroscope = SIMD3(0.1, 0.2, 0.3)
        r.accelerometer = SIMD3(0, 0, 9.80665)
        r.magnetometer = SIMD3(20, 0, -40)
        return r
    }

    @Test func levelBoardFacingNorthIsZeroInNED() {
        let a = TelemetryMessages.attitude(record(), world: .enu)
        #expect(abs(a.roll) < 1e-6 && abs(a.pitch) < 1e-6 && abs(a.yaw) < 1e-6)
        let q = TelemetryMessages.attitudeQuaternion(record(), world: .enu)
        #expect(abs(q.q1) > 0.999999)
    }

    @Test func coreMotionAnglesMapToAircraftAngles() {
        // Core Motion pitch (top up) = MAVLink pitch (nose up); roll (right side down) = roll;
        // yaw counter-clockwise = MAVLink yaw clockwise, negated.
        #expect(abs(TelemetryMessages.attitude(record(pitch: 0.3), world: .enu).pitch - 0.3) < 1e-5)
        #expect(abs(TelemetryMessages.attitude(record(roll: 0.2), world: .enu).roll - 0.2) < 1e-5)
        #expect(abs(TelemetryMessages.attitude(record(yaw: 0.4), world: .enu).yaw + 0.4) < 1e-5)
        // NWU world with identity attitude: the top (forward) points west, yaw −90°.
        #expect(abs(TelemetryMessages.attitude(record(), world: .nwu).yaw + .pi / 2) < 1e-5)
        // Same attitude stated in NED: nothing to convert but the body axes.
        let inNED = WorldAxes.enu.convert(attitude: record(pitch: 0.1, roll: -0.5, yaw: 2).attitude, to: .ned)
        var r = record(); r.attitude = inNED
        let a = TelemetryMessages.attitude(r, world: .ned)
        #expect(abs(a.pitch - 0.1) < 1e-5 && abs(a.roll + 0.5) < 1e-5 && abs(a.yaw + 2) < 1e-5)
    }

    @Test func imuInFRDUnits() {
        let m = TelemetryMessages.scaledIMU(record())
        #expect(m.zacc == -1000)                                  // level: specific force up = −z in FRD
        #expect(m.xgyro == 200 && m.ygyro == 100 && m.zgyro == -300)  // mrad/s: (y, x, −z)
        #expect(m.xmag == 0 && m.ymag == 200 && m.zmag == 400)    // mgauss
    }

    @Test func outputsInMicrosecondsAndLevels() {
        var r = record()
        r.outputs = ChannelCommands(count: 3)
        r.outputs[0] = 1_500_000; r.outputs[1] = 1_000_499; r.outputs[2] = 1
        let m = TelemetryMessages.servoOutputRaw(r, levelChannels: 0b100)
        #expect(m.servo[0] == 1500 && m.servo[1] == 1000 && m.servo[2] == 1 && m.servo[3] == 0)
    }

    @Test func ratesFollowSensorTime() {
        var settings = TelemetrySettings()
        settings.heartbeatHz = 1; settings.attitudeHz = 50; settings.imuHz = 10; settings.outputsHz = 0; settings.statusHz = 2
        var stream = TelemetryStream(settings: settings)
        var counts: [UInt32: Int] = [:]
        var sequences: [UInt8] = []
        for tick in 0 ..< 2000 {  // 2 s at 1 kHz
            stream.process(record(time: Double(tick) / 1000)) { bytes in
                if case .success(let (frame, _)) = MAVLinkDecoder.decode(Array(bytes)) {
                    counts[frame.messageID, default: 0] += 1
                    sequences.append(frame.sequence)
                }
            }
        }
        #expect(counts[0] == 2 && counts[30] == 100 && counts[31] == 100 && counts[26] == 20 && counts[36] == nil)
        #expect(counts[1] == 4 && counts[251] == 4 * 8)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
    }

    @Test func loopPercentiles() {
        var s = LoopStatistics()
        for i in 1 ... 100 { s.add(latenessNanoseconds: Int64(i * 1000), computeNanoseconds: 100_000, time: Double(i) / 1000) }
        let summary = s.take()
        #expect(summary.latenessMax == 100_000 && summary.latenessP99 == 99_000 && summary.latenessP50 == 51_000)
        #expect(abs(summary.load - 0.1) < 1e-9)
        #expect(s.take().ticks == 0)
    }

    @Test func addressesParseOrSayWhatIsWrong() throws {
        #expect(try TelemetryAddress(parsing: "127.0.0.1:14550") == TelemetryAddress(host: "127.0.0.1", port: 14550))
        #expect(try TelemetryAddress(parsing: "[::1]:5").host == "::1")
        #expect(throws: TelemetryError.self) { try TelemetryAddress(parsing: "localhost") }
        #expect(throws: TelemetryError.self) { try TelemetryAddress(parsing: "localhost:99999") }
    }

    @Test func ringDropsWhenFullAndKeepsOrder() {
        let ring = TickRecordRing(capacity: 4)
        for i in 0 ..< 6 { var r = TickRecord(); r.tick = UInt64(i); _ = ring.offer(r) }
        #expect(ring.dropped == 2)
        var ticks: [UInt64] = []
        while let r = ring.poll() { ticks.append(r.tick) }
        #expect(ticks == [0, 1, 2, 3])
    }
}

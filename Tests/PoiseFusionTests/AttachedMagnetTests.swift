import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// The second of the filter's two former failure classes: a magnet fixed to the sensor (a
/// hard-iron offset carried with the body). The earth's field then looks like a sphere shifted
/// by the magnet's field, so its norm and dip change as the body turns: the disturbance
/// detector rejects it, or accepts a "new field" that is wrong in another orientation, and the
/// heading is lost. The online hard-iron estimate (`HardIronEstimator`) learns the offset once
/// the body turns (about 13 s into `demo`), but here the magnet is there from the first sample:
/// the start-up heading and the disturbance reference were both taken from offset readings
/// while the board sat still, when no measurement can tell the offset from the earth's field,
/// and the heading then recovers only at the magnetometer time constant. That part is
/// physics: with the board still, the offset cannot be told from the earth's field. What the
/// filter owes is to know it: `headingUnverified` (see the flag tests below).
@Suite struct AttachedMagnetTests {
    /// RMS attitude error (degrees) over `demo` after its first `from` seconds, with a magnet
    /// of `moment` A·m² `centimetres` away along body x, its axis pointing at the sensor (the
    /// field at the sensor lies along body x: horizontal while the board is level).
    static func attitudeError(centimetres: Double, moment: Double = 0.01, from: Double = 5) throws -> Double {
        let motion = try #require(MotionScript.preset(named: "demo"))
        var errors = SensorErrorModel.default
        errors.magneticDisturbances = [.dipole(start: 0, end: 1e9, moment: SIMD3(moment, 0, 0),
                                               position: SIMD3(centimetres / 100, 0, 0), frame: .body, ramp: 0)]
        let rate = 200.0
        var imu = try SimulatedIMU(script: motion, sampleRate: rate, errorModel: errors)
        var filter = PoiseFilter()
        var sum = 0.0, count = 0
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope,
                                         magnetometer: s.magnetometer), dt: Float(1 / rate))
            guard Double(s.index) / rate > from else { continue }
            let angle = Double(filter.attitude.angle(to: s.truth)) * 180 / .pi
            sum += angle * angle
            count += 1
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    @Test func withoutAMagnetTheDemoIsAccurate() throws {
        #expect(try Self.attitudeError(centimetres: 1000) < 2)
    }

    /// 0.01 A·m² at 6, 4 and 3 cm adds 9.3, 31 and 74 µT along body x to a 45 µT field.
    /// Measured on 2026-11-24: 22.6°, 51.5° and 65.9° RMS (without the magnet 0.4°); with the
    /// hard-iron estimate (2026-11-25) 16.9°, 58.7° and 75.4°: the offset is learned (32 µT of
    /// the 31 at 4 cm, see `replayShowsTheLearnedHardIronOffset`), but the heading is not;
    /// with the heading limit (later that day) 21.3°, 58.7° and 75.4°, since the limit slows
    /// a wrong start-up heading's recovery once the field is trusted. With the reference made
    /// provisional when the offset moves (see `theHeadingRecoversOnceTheOffsetIsLearned`):
    /// 21.1°, 42.6° and 55.5° — most of what is left is the seconds before the board has
    /// turned enough to learn the offset, which nothing causal can know.
    /// Taking the fit's earth field as the disturbance reference on a move gave 16.9°, 35.9°
    /// and 50.0° but cost the carried 4 cm magnet 1.3° → 3.8°; restarting the heading average
    /// as well, 28° at 4 cm but 14.3° for the carried one. The same
    /// magnet turned to put its field along body z costs only 1.2°: while the board stays
    /// roughly level that offset looks like a steeper dip, which the detector accepts as a
    /// new field without touching the heading.
    @Test(arguments: [6.0, 4.0, 3.0])
    func aMagnetFixedToTheSensorLeavesTheHeadingAlone(centimetres: Double) throws {
        let error = try Self.attitudeError(centimetres: centimetres)
        withKnownIssue("a magnet present from start-up spoils the first heading") {
            #expect(error < 3, "\(centimetres) cm: \(error)° RMS")
        }
    }

    /// Once the board has turned enough to learn the offset (about 13 s into `demo`), a field
    /// whose norm or dip the offset changed beyond the disturbance thresholds replaces the
    /// start-up reference as soon as the corrected readings have been steady while turning,
    /// and the heading starts up again from them. Before that (2026-11-25, morning) the
    /// corrected readings were rejected against the start-up reference for the rest of the
    /// run: 58.7° and 75.4° over the last 5 s at 4 and 3 cm; now 0.2° and 0.3° (2 cm: 1.1°, 0.8°
    /// since later fits refine the offset).
    /// At 6 cm the offset leaves norm and dip within the thresholds and the heading recovers
    /// only at the limited rate (still about 12° over the last 5 s; see above).
    @Test(arguments: [4.0, 3.0, 2.0])
    func theHeadingRecoversOnceTheOffsetIsLearned(centimetres: Double) throws {
        let error = try Self.attitudeError(centimetres: centimetres, from: 33)
        print("attached magnet \(centimetres) cm: \(error)° RMS over the last 5 s")
        #expect(error < 2, "\(centimetres) cm: \(error)° RMS over the last 5 s")
    }

    /// Per sample of `demo` with the magnet `centimetres` away (none when nil): time, s; the
    /// attitude error, degrees; whether the filter flagged the heading unverified.
    static func flaggedRun(centimetres: Double?) throws -> [(time: Double, error: Double, flagged: Bool)] {
        let motion = try #require(MotionScript.preset(named: "demo"))
        var errors = SensorErrorModel.default
        if let centimetres {
            errors.magneticDisturbances = [.dipole(start: 0, end: 1e9, moment: SIMD3(0.01, 0, 0),
                                                   position: SIMD3(centimetres / 100, 0, 0), frame: .body, ramp: 0)]
        }
        let rate = 200.0
        var imu = try SimulatedIMU(script: motion, sampleRate: rate, errorModel: errors)
        var filter = PoiseFilter()
        var run: [(time: Double, error: Double, flagged: Bool)] = []
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope,
                                         magnetometer: s.magnetometer), dt: Float(1 / rate))
            run.append((Double(s.index) / rate, Double(filter.attitude.angle(to: s.truth)) * 180 / .pi,
                        filter.status.flags.contains(.headingUnverified)))
        }
        return run
    }

    /// What is unobservable: with the board still, a magnet fixed to it since power-on adds a
    /// constant field that only its sum with the earth's is measured, so the start-up heading is
    /// off by the angle it turns the horizontal field (31 µT along body x at 4 cm: 40–60°) and
    /// no causal filter can know by how much. The filter says so: `headingUnverified` is set
    /// from the first reading while the heading is that far off, and clears only once turning
    /// has let the hard-iron fit separate the offset and the heading agrees with the readings
    /// less it; whenever it is clear the heading is within a few degrees — never confidently
    /// wrong. At 6 cm (9 µT) the offset leaves norm and dip within the disturbance thresholds,
    /// the heading recovers only at the limited rate and is still 10.8° off at the end of
    /// `demo`: the flag stays set, as it should.
    @Test(arguments: [(6.0, false), (4.0, true), (3.0, true)])
    func aMagnetPresentFromPowerOnFlagsTheHeadingUntilTurningRevealsIt(centimetres: Double, clears: Bool) throws {
        let run = try Self.flaggedRun(centimetres: centimetres)
        let still = run.filter { $0.time > 0.5 && $0.time < 5 }
        #expect(still.allSatisfy { $0.flagged }, "\(centimetres) cm: heading not flagged while still")
        let stillError = still.map { $0.error }.min() ?? 0
        #expect(stillError > 10, "\(centimetres) cm: the magnet should turn the start-up heading")
        let confident = run.filter { !$0.flagged && $0.time > 1 }
        let worst = confident.map(\.error).max() ?? 0
        let flaggedWorst = run.filter { $0.flagged && $0.time > 1 }.map(\.error).max() ?? 0
        let firstClear = confident.first?.time ?? .infinity
        print("attached magnet \(centimetres) cm: flag clears at \(firstClear) s; worst error unflagged \(worst)°, flagged \(flaggedWorst)°; at the end \(run.last!.error)°")
        #expect(worst < 5, "\(centimetres) cm: \(worst)° off while the heading was not flagged")
        if clears {
            #expect(run.suffix(1000).allSatisfy { !$0.flagged }, "\(centimetres) cm: still flagged over the last 5 s")
        } else {
            #expect(run.last!.flagged && run.last!.error > 5, "\(centimetres) cm: \(run.last!.error)° at the end")
        }
    }

    /// Without a magnet the flag says the same thing about any start-up: until the board has
    /// turned, no reading can rule out a carried offset. It clears at the first turn, and the
    /// heading is as accurate as before.
    @Test func withoutAMagnetTheFlagClearsAtTheFirstTurn() throws {
        let run = try Self.flaggedRun(centimetres: nil)
        let firstClear = try #require(run.first { !$0.flagged && $0.time > 1 }).time
        let worst = run.filter { !$0.flagged && $0.time > 1 }.map(\.error).max() ?? 0
        print("no magnet: flag clears at \(firstClear) s; worst error unflagged \(worst)°")
        #expect(firstClear < 20)
        #expect(worst < 3)
        #expect(run.suffix(1000).allSatisfy { !$0.flagged })
    }
}

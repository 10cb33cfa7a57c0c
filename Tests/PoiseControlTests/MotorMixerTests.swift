import PoiseControl
import PropertyBased
import Testing

@Suite struct MotorMixerTests {
    /// Torque each motor's throttle gives about (x, y, z), in the mixer's own factor units.
    func torque(_ motors: SIMD4<Float>, _ frame: QuadFrame) -> SIMD3<Float> {
        let f = frame.factors
        return SIMD3((motors * f.pitch).sum(), (motors * f.roll).sum(), (motors * f.yaw).sum())
    }

    @Test(arguments: QuadFrame.allCases)
    func outputsStayWithinLimits(frame: QuadFrame) async {
        let mixer = MotorMixer(frame: frame, idleThrottle: 0.1)
        await propertyCheck(count: 500, input: Gen.float(in: -3...3).simd4) { d in
            let m = mixer.mix(thrust: d.x, pitch: d.y, roll: d.z, yaw: d.w, armed: true)
            #expect(all(m .>= SIMD4(repeating: 0.1 - 1e-6)) && all(m .<= SIMD4(repeating: 1 + 1e-6)), "\(d) → \(m)")
        }
    }

    @Test(arguments: QuadFrame.allCases)
    func attitudeWinsOverThrustUnderSaturation(frame: QuadFrame) async {
        // Any roll/pitch demand that fits in the range is delivered exactly, whatever the
        // thrust asks for: the collective moves instead (and yaw gives way).
        let mixer = MotorMixer(frame: frame, idleThrottle: 0)
        await propertyCheck(count: 500, input: Gen.float(in: -1...1).simd4) { d in
            let thrust = d.x * 1.5   // often outside 0…1: saturation
            let pitch = d.y * 0.5, roll = d.z * 0.5, yaw = d.w
            var spreadTest = frame.factors.pitch * pitch + frame.factors.roll * roll
            guard spreadTest.max() - spreadTest.min() <= 1 else { return }
            spreadTest = .zero
            let m = mixer.mix(thrust: thrust, pitch: pitch, roll: roll, yaw: yaw, armed: true)
            let t = torque(m, frame), demanded = torque(frame.factors.pitch * pitch + frame.factors.roll * roll, frame)
            #expect(abs(t.x - demanded.x) < 1e-4 && abs(t.y - demanded.y) < 1e-4, "\(d): \(t) vs \(demanded)")
        }
    }

    @Test func yawGivesWayBeforeRollAndPitch() {
        let mixer = MotorMixer(frame: .x, idleThrottle: 0)
        let m = mixer.mix(thrust: 0.5, pitch: 0.8, roll: 0, yaw: 1, armed: true)
        let t = torque(m, .x)
        #expect(abs(t.x - torque(QuadFrame.x.factors.pitch * 0.8, .x).x) < 1e-4)
        #expect(t.z > 0 && t.z < torque(QuadFrame.x.factors.yaw, .x).z)
    }

    @Test func unreachableAttitudeKeepsItsDirection() {
        let mixer = MotorMixer(frame: .x, idleThrottle: 0)
        let m = mixer.mix(thrust: 0.5, pitch: 3, roll: 1.5, yaw: 0, armed: true)
        let t = torque(m, .x)
        #expect(abs(t.x / t.y - 2) < 1e-3)
    }

    @Test func disarmedOrNonFiniteIsZero() {
        let mixer = MotorMixer(frame: .plus)
        #expect(mixer.mix(thrust: 0.5, pitch: 0, roll: 0, yaw: 0, armed: false) == .zero)
        #expect(mixer.mix(thrust: .nan, pitch: 0, roll: 0, yaw: 0, armed: true) == .zero)
        #expect(mixer.mix(thrust: 0.5, pitch: .infinity, roll: 0, yaw: 0, armed: true) == .zero)
    }

    @Test func signsFollowTheFrameGeometry() {
        // X: a positive pitch demand (nose up) pushes the front motors 1 and 3.
        let m = MotorMixer(frame: .x, idleThrottle: 0).mix(thrust: 0.5, pitch: 0.2, roll: 0, yaw: 0, armed: true)
        #expect(m[0] > m[1] && m[2] > m[3] && m[0] == m[2])
        // +: a positive roll demand (right side down) pushes the left motor 2.
        let p = MotorMixer(frame: .plus, idleThrottle: 0).mix(thrust: 0.5, pitch: 0, roll: 0.2, yaw: 0, armed: true)
        #expect(p[1] > p[0] && p[2] == p[3])
        // Positive yaw (counter-clockwise) pushes the clockwise props 3 and 4.
        let y = MotorMixer(frame: .x, idleThrottle: 0).mix(thrust: 0.5, pitch: 0, roll: 0, yaw: 0.2, armed: true)
        #expect(y[2] > y[0] && y[3] > y[1])
    }

    @Test func idleAtZeroDemand() {
        let m = MotorMixer(frame: .x, idleThrottle: 0.08).mix(thrust: 0, pitch: 0, roll: 0, yaw: 0, armed: true)
        #expect(m == SIMD4(repeating: 0.08))
    }
}

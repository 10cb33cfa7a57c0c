import PoiseLive
@testable import PoiseLoop
import Foundation
import PoiseControl
import PoiseFlightCore
@testable import PoiseRun
import Testing
import PoiseMath

/// The ground station's arming refusals are the supervisor's answer, worded as before.
struct ArmingRefusalTextTests {
    static func record(_ change: (inout TickRecord) -> Void) -> TickRecord {
        var r = TickRecord()
        r.sampleValid = true
        r.sensorState = .running
        change(&r)
        return r
    }

    @Test func theTextsTheGroundStationShows() {
        let safety = SafetySettings()
        func text(_ change: (inout TickRecord) -> Void) -> String? { CommandArming.refusal(Self.record(change), safety: safety) }
        #expect(text { _ in } == nil)
        #expect(text { $0.armState = .armed; $0.sampleValid = false } == nil)
        #expect(text { $0.armState = .failsafe } == "in failsafe until the fault clears")
        #expect(text { $0.readFailed = true } == "unhealthy: no good sensor sample")
        #expect(text { $0.sensorState = .lost } == "unhealthy: no good sensor sample")
        #expect(text { $0.sampleValid = false } == "unhealthy: no good sensor sample")
        #expect(text { $0.filterFlags = [.initialising, .notConverged] } == "not converged: filter initialising")
        #expect(text { $0.filterFlags = [.notConverged] } == "not converged: attitude not re-established")
        let half = Float(20.0 * Double.pi / 180 / 2)
        #expect(text { $0.attitude = Quaternion(w: cos(half), x: sin(half), y: 0, z: 0) } == "not level: 20.0 > 15.0 deg (safety.arm_tilt_deg)")
    }
}

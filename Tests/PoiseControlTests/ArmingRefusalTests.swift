import Testing
@testable import PoiseControl

/// The supervisor answers "would you arm now, and if not why" by the rules its `update` applies
/// to a request: every combination it refuses, a request in `update` leaves it disarmed; every
/// one it accepts, a request arms it.
struct ArmingRefusalTests {
    static let settings = SafetySettings(armSource: .command)

    /// A supervisor that has seen a good sample, then a request to arm under `c`, and the hold time.
    static func armsOnRequest(_ c: ArmingConditions) -> Bool {
        var supervisor = ArmingSupervisor(settings: settings)
        _ = supervisor.update(SafetyInputs(time: 0, estimatorReady: false))
        var inputs = SafetyInputs(time: 0.005, freshSample: c.sensorHealthy, sensorFailed: !c.sensorHealthy,
                                  estimatorReady: c.estimatorReady, attitudeConverged: c.attitudeConverged, tilt: c.tilt)
        inputs.armCommand = .arm
        // The request arms once the conditions have held for arm_hold_s (nothing else changes).
        _ = supervisor.update(inputs)
        inputs.armCommand = .none
        inputs.time += settings.armHoldTime
        return supervisor.update(inputs) == .armed
    }

    @Test func aRefusalIsExactlyWhatUpdateRefuses() {
        let tilts: [Float] = [0, 0.1, Self.settings.armTilt, Self.settings.armTilt.nextUp, 0.5, .nan]
        for healthy in [true, false] {
            for ready in [true, false] {
                for converged in [true, false] {
                    for tilt in tilts {
                        let c = ArmingConditions(state: .disarmed, sensorHealthy: healthy, estimatorReady: ready,
                                                 attitudeConverged: converged, tilt: tilt)
                        #expect((ArmingSupervisor.refusal(c, settings: Self.settings) == nil) == Self.armsOnRequest(c), "\(c)")
                    }
                }
            }
        }
    }

    @Test func theReasonIsTheFirstConditionThatFails() {
        func refusal(_ state: ArmState = .disarmed, healthy: Bool = true, ready: Bool = true, converged: Bool = true, tilt: Float = 0) -> ArmingRefusal? {
            ArmingSupervisor.refusal(ArmingConditions(state: state, sensorHealthy: healthy, estimatorReady: ready,
                                                      attitudeConverged: converged, tilt: tilt), settings: Self.settings)
        }
        #expect(refusal() == nil)
        #expect(refusal(.armed, healthy: false) == nil)
        #expect(refusal(.failsafe) == .failsafe)
        #expect(refusal(healthy: false, ready: false) == .sensorUnhealthy)
        #expect(refusal(ready: false, converged: false) == .filterInitialising)
        #expect(refusal(converged: false, tilt: 1) == .attitudeNotEstablished)
        #expect(refusal(tilt: 1) == .notLevel(tilt: 1, limit: Self.settings.armTilt))
    }
}

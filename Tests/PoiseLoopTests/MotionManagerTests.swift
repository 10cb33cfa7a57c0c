import Foundation
import PoiseConfig
import PoiseControl
import PoiseRun
import Testing
import PoiseMath

@Test func motionManagerRunsTheLoopAndStopsSafe() async throws {
    // 250 Hz, and overruns tolerated for 4 s in a row, stalls and sensor gaps up to 10 s, and
    // re-arming once level: the debug build on a CI machine busy with the rest of the suite
    // overran (or stalled) its way out of arming, and the updates below, as starved, missed
    // the seconds it was armed (the timing and re-arming rules are tested elsewhere).
    let text = BuiltInConfiguration.text.replacingOccurrences(
        of: "  rate_hz: 1000", with: "  rate_hz: 250\n  overrun_limit: 1000")
        .replacingOccurrences(of: "safety:\n",
                              with: "safety:\n  stall_ms: 10000\n  sensor_timeout_ms: 10000\n  rearm: when_level\n")
        // A board held still rather than the balancing robot: a starved loop lets the robot's
        // plant fall over before it ever arms, and then it lies there (the plant's falls are
        // tested with the simulated rig, in simulated time).
        .replacingOccurrences(of: "  plant: auto\n  initial_tilt_deg: 10\n", with: "  plant: motion\n  motion: static\n")
    #expect(text.contains("motion: static") && text.contains("overrun_limit"))
    let configuration = try PoiseConfiguration.parse(text: text, file: BuiltInConfiguration.name)
    let manager = MotionManager(configuration: configuration, referenceFrame: .axes(.enu))
    try manager.start()
    #expect(throws: RunError.self) { try manager.start() }
    var received = 0
    for await motion in manager.updates(interval: .milliseconds(20)) {
        #expect(motion.attitude.w.isFinite)
        received += 1
        // Once armed (the filter has converged), the body's gravity points down through the
        // robot, about −z.
        if manager.latestTick.armState == .armed {
            #expect(motion.gravity.z < -9, "\(motion.gravity)")
            break
        }
        if received > 3000 { Issue.record("never armed: \(manager.latestTick.armState)"); break }
    }
    #expect(manager.isActive)
    let result = try manager.stop()
    #expect(result.statistics.ticks > 0)
    #expect(!manager.isActive)
    // The last tick saw the stop: a disarm with its own reason (not a failsafe), every output
    // at its safe value.
    #expect(manager.latestTick.armState == .disarmed)
    #expect(manager.latestTick.eventReason == .stopRequested)
}

import Foundation
import PoiseConfig
import PoiseControl
import PoiseLoop
import PoiseMath
import Testing

@Test func motionManagerRunsTheLoopAndStopsSafe() async throws {
    let configuration = try PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
    let manager = MotionManager(configuration: configuration, referenceFrame: .axes(.enu))
    try manager.start()
    #expect(throws: RunError.self) { try manager.start() }
    var received = 0
    for await motion in manager.updates(interval: .milliseconds(20)) {
        #expect(motion.attitude.w.isFinite)
        received += 1
        // Once armed (the filter has converged), the body's gravity points down through the
        // robot, about −z.
        if manager.latestTick.armState == ArmState.armed.rawValue {
            #expect(motion.gravity.z < -9, "\(motion.gravity)")
            break
        }
        if received > 1500 { Issue.record("never armed"); break }
    }
    #expect(manager.isActive)
    let result = try manager.stop()
    #expect(result.statistics.ticks > 0)
    #expect(!manager.isActive)
    // The last tick saw the stop: failsafe, every output at its safe value.
    #expect(manager.latestTick.armState == ArmState.failsafe.rawValue)
}

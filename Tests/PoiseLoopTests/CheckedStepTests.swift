import PoiseFusion
@testable import PoiseLoop
@testable import PoiseRun
import PoiseSimulation
import Testing

/// The loop type of `rig`'s `loop` property, asked whether it steps through the checked step.
private func stepsChecked<Board, Filter, Clock: LoopClock>(
    _ loop: KeyPath<LinuxRig, LiveLoop<Board, Filter>>, on clock: Clock.Type
) -> Bool {
    LiveLoop<Board, Filter>.stepsChecked(on: clock)
}

/// What the release build's allocation check covers is what runs: the loop `poise run` builds
/// on a Pi (`LinuxRig`'s) takes `checkedStep` on the real clock; virtual time and the
/// simulated boards take the generic step.
@Test func theBoardsLoopStepsThroughTheCheckedStep() {
    #expect(stepsChecked(\LinuxRig.loop, on: RealTimeClock.self))
    #expect(!stepsChecked(\LinuxRig.loop, on: VirtualClock.self))
    #expect(!LiveLoop<SimulatedBoard<BalancingRobotWorld>, PoiseFilter>.stepsChecked(on: RealTimeClock.self))
}

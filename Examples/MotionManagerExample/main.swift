// A Swift program with Poise inside: start a MotionManager on a configuration, read motion
// updates for a few seconds the way a Core Motion app would, then stop.
//
//   swift run motion-manager-example                     # the built-in simulated robot
//   swift run motion-manager-example configs/sim-quad-x.yaml 10
import PoiseConfig
import PoiseLoop
import PoiseMath

let arguments = CommandLine.arguments.dropFirst()
let configuration = try arguments.first.map { try PoiseConfiguration.load(path: $0) }
    ?? PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 6

let manager = MotionManager(configuration: configuration, referenceFrame: .reference(.xArbitraryZVertical))
try manager.start()
print("time    pitch°   roll°    yaw°   state")
let start = ContinuousClock.now
for await motion in manager.updates(interval: .milliseconds(250)) {
    let e = EulerAngles(motion.attitude)
    let tick = manager.latestTick
    let state = tick.armState.name
    let degrees = { (r: Float) in String(Int((r * 180 / .pi * 10).rounded())) }
    print("\(tick.tickTime)  \(degrees(e.pitch))  \(degrees(e.roll))  \(degrees(e.yaw))  \(state)  (angles ×10)")
    if ContinuousClock.now - start > .seconds(seconds) { break }
}
let result = try manager.stop()
print("stopped: \(result.statistics.ticks) ticks, \(result.statistics.overruns) overruns; outputs safe")

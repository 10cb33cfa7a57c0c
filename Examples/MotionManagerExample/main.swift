// A Swift program with Poise inside: start a MotionManager on a configuration, read motion
// updates for a few seconds the way a Core Motion app would, then stop.
//
//   swift run motion-manager-example                     # the built-in simulated robot
//   swift run motion-manager-example configs/sim-quad-x.yaml 10
import Foundation
import PoiseConfig
import PoiseMath
import PoiseRun

/// Prints `motion-manager-example: message` to standard error and exits 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("motion-manager-example: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
let configuration: PoiseConfiguration
do {
    configuration = try arguments.first.map { try PoiseConfiguration.load(path: $0) }
        ?? PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
} catch {
    fail("\(error)")
}
let seconds = arguments.dropFirst().first.map { text in
    guard let value = Double(text), value.isFinite, value > 0 else { fail("'\(text)' is not a positive number of seconds") }
    return value
} ?? 6

let manager = MotionManager(configuration: configuration, referenceFrame: .reference(.xArbitraryZVertical))
do { try manager.start() } catch { fail("\(error)") }
/// `value` in a column `width` wide with `digits` decimals.
func column(_ value: Double, _ digits: Int, width: Int) -> String {
    let text = String(format: "%.\(digits)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
print("time s   pitch°   roll°    yaw°  state")
let start = ContinuousClock.now
for await motion in manager.updates(interval: .milliseconds(250)) {
    let e = EulerAngles(motion.attitude)
    let tick = manager.latestTick
    let state = tick.armState.name
    let degrees = { (r: Float) in column(Double(r) * 180 / .pi, 1, width: 8) }
    print("\(column(tick.tickTime, 2, width: 6)) \(degrees(e.pitch))\(degrees(e.roll))\(degrees(e.yaw))  \(state)")
    if ContinuousClock.now - start > .seconds(seconds) { break }
}
do {
    let result = try manager.stop()
    print("stopped: \(result.statistics.ticks) ticks, \(result.statistics.overruns) overruns; outputs safe")
} catch {
    fail("\(error)")
}

import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseReplay
import PoiseRun
import PoiseSchedules

/// The verification: the loop with some gains answers a step. The quadrotor is stepped 10°
/// in pitch one second after arming, then back, with 10° of roll; the balancing robot is
/// released at its configured initial tilt when it arms. The true attitude is read on the
/// simulated rig, the estimate on a real one.
struct StepRun {
    enum Rig { case quadrotor(throttle: Double), balancingRobot(start: Double, target: Double) }
    let rig: Rig
    let options: TuningOptions
    let rateHz: Double
    let useTruth: Bool
    var armedAt: Double?
    var samples: [[Double]] = [[], []]
    var problem: String?
    var finished = false

    init(rig: Rig, options: TuningOptions, rateHz: Double, useTruth: Bool) {
        self.rig = rig
        self.options = options
        self.rateHz = rateHz
        self.useTruth = useTruth
    }

    var stepTime: Double { (armedAt ?? 0) + (isQuad ? 1 : 0) }
    var isQuad: Bool { if case .quadrotor = rig { true } else { false } }

    mutating func observe<B, F>(_ loop: inout LiveLoop<B, F>, _ r: TickRecord) -> Bool {
        if finished { return true }
        if armedAt == nil {
            guard r.armState == .armed else { return false }
            armedAt = r.time
            if case .quadrotor(let throttle) = rig {
                let t1 = r.time + 1, t2 = t1 + options.stepSeconds, step = options.stepDegrees
                let text = "time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,\(throttle),0,0,0\n\(t1),\(throttle),\(step),0,0\n\(t2),\(throttle),0,\(step),0\n"
                if let schedule = try? SetpointSchedule(path: "poise tune", text: text) { loop.links.setpoints = schedule }
            }
        }
        if r.armState != .armed {
            problem = String(format: "failed safe %.2f s after arming (\(r.eventReason))", r.time - (armedAt ?? 0))
            finished = true
            return true
        }
        let attitude = EulerAngles(useTruth ? r.truth : r.attitude)
        let degrees = 180 / Double.pi
        let t = r.time - stepTime
        guard t >= 0 else { return false }
        if t < options.stepSeconds {
            samples[0].append(Double(attitude.pitch) * degrees)
        } else if isQuad, t < 2 * options.stepSeconds {
            samples[1].append(Double(attitude.roll) * degrees)
        } else {
            finished = true
        }
        return finished
    }

    var checks: [StepCheck] {
        let dt = 1 / rateHz
        switch rig {
        case .quadrotor:
            let step = options.stepDegrees
            return [("pitch", 0), ("roll", 1)].map { axis, index in
                guard problem == nil || samples[index].count >= Int(options.stepSeconds * rateHz) else {
                    return StepCheck(axis: axis, response: nil, problem: problem)
                }
                return StepCheck(axis: axis, response: StepResponse(samples: samples[index], dt: dt, start: 0, target: step), problem: nil)
            }
        case .balancingRobot(let start, let target):
            guard problem == nil, finished else { return [StepCheck(axis: "pitch", response: nil, problem: problem ?? "never armed")] }
            return [StepCheck(axis: "pitch", response: StepResponse(samples: samples[0], dt: dt, start: start, target: target), problem: nil)]
        }
    }
}

/// How a loop answered a 10° step (or let go of a 10° initial tilt): settling and overshoot,
/// read the same way from a prediction and from a run.
public struct StepResponse: Sendable, Equatable, Codable {
    /// The step, degrees (from the start value to the target).
    public var size: Double
    /// Time from the step until the response stays within `band` of the target to the end of
    /// the record, s; nil if it never does.
    public var settlingTime: Double?
    /// Largest excursion beyond the target, as a fraction of the step (0.12 = 12 %).
    public var overshoot: Double
    /// The settling band, degrees.
    public var band: Double
    /// Seconds after the step and the response, degrees, for a picture (≤ 400 points).
    public var time: [Double]
    public var value: [Double]

    /// Settling is within 1° of the target, 10 % of a 10° step: `poise simulate`'s criterion.
    public static let settlingBand = 1.0

    /// Reads a response sampled every `dt` s from the step on.
    public init(samples: [Double], dt: Double, start: Double, target: Double, band: Double = settlingBand) {
        size = target - start
        self.band = band
        var settled: Int? = nil
        for (i, v) in samples.enumerated() {
            if abs(v - target) > band { settled = nil } else if settled == nil { settled = i }
        }
        // Settled only if it was still inside at the end of a record that went on after it.
        settlingTime = settled.map { Double($0) * dt }
        let direction: Double = size >= 0 ? 1 : -1
        let beyond = samples.map { (($0 - target) * direction) }.max() ?? 0
        overshoot = size == 0 ? 0 : max(0, beyond) / abs(size)
        let every = max(1, samples.count / 400)
        time = stride(from: 0, to: samples.count, by: every).map { Double($0) * dt }
        value = stride(from: 0, to: samples.count, by: every).map { samples[$0] }
    }
}

/// The model's answer to the same step, with the PID as `PIDController` runs it (derivative
/// on the measurement, output and integral clamps) at the loop's rate.
public enum StepPrediction {
    /// - Parameters:
    ///   - start, target: in the model's unit (rad); the response is read in degrees.
    ///   - outputLimit, integralLimit: the controller's clamps, in its output unit.
    public static func response(model: LoopModel, controller: PIDGains, rateHz: Double, start: Double, target: Double,
                                outputLimit: Double = .infinity, integralLimit: Double = .infinity,
                                duration: Double = 4) -> StepResponse {
        let dt = 1 / rateHz
        let delaySamples = max(0, Int((model.delay / dt).rounded()))
        var pipe = [Double](repeating: 0, count: delaySamples + 1)
        var head = 0
        var y = start, ydot = 0.0, v = 0.0
        var integral = 0.0
        var filteredRate = 0.0
        let wf = controller.derivativeCutoffHz > 0 ? 2 * Double.pi * controller.derivativeCutoffHz : .infinity
        let alpha = wf.isFinite ? dt / (dt + 1 / wf) : 1
        var samples: [Double] = []
        let n = Int(duration * rateHz)
        samples.reserveCapacity(n)
        for _ in 0..<n {
            samples.append(y)
            let measuredRate = model.kind == .doubleIntegratingWithDelay ? ydot : 0
            filteredRate += alpha * (measuredRate - filteredRate)
            let error = target - y
            integral = max(-integralLimit, min(integralLimit, integral + controller.ki * error * dt))
            let u = max(-outputLimit, min(outputLimit, controller.kp * error + integral - controller.kd * filteredRate))
            pipe[head] = u
            head = (head + 1) % pipe.count
            let delayed = pipe[head]
            switch model.kind {
            case .integratingWithDelay:
                y += model.gain * delayed * dt
            case .doubleIntegratingWithDelay:
                // The robot's pitch (``LoopModel/fallRate``): the drive sets the wheels'
                // speed v through the motors' pole, their acceleration and gravity tip the body.
                let a = model.fallRate
                let vdot = model.gain * delayed - model.motorPole * v
                v += vdot * dt
                ydot += (a * a * y + vdot) * dt
                y += ydot * dt
            }
        }
        let degrees = 180 / Double.pi
        return StepResponse(samples: samples.map { $0 * degrees }, dt: dt, start: start * degrees, target: target * degrees)
    }
}

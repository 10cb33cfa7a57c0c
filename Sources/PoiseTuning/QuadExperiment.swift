import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseRun

/// The quadrotor stand's experiment, driven tick by tick from inside the loop: once armed, a
/// second with the configured gains to measure the rate noise (a vibrating frame's, after the
/// gyro filters), then relays with hysteresis above that noise on the three rate loops at once (a weak angle loop keeps the stand near level),
/// then — with the rate loops tuned — relays on the pitch and roll angle loops. Every tick
/// is the ordinary tick with the supervisor active; a failsafe or a tilt past the
/// experiment's own limit ends it.
struct QuadExperiment {
    enum Phase { case waiting, quiet(start: Double), rates(start: Double), angles(start: Double), done }
    let configured: QuadSettings
    let options: TuningOptions
    let rateHz: Double
    let tiltLimit: Float
    var phase = Phase.waiting
    var channels: [RelayChannel]
    var loops: [LoopTuning] = []
    var failure: String?
    var experimentSeconds = 0.0
    /// The angle relay's gain and amplitude (its output is computed here: the controller keeps
    /// the rate setpoint to itself).
    var angleRelayGain: Float = 0
    var angleRelayAmplitude: Float = 0
    /// The rate relays' hysteresis, rad/s per axis, and the rates recorded to size it.
    var hysteresis = SIMD3<Float>.zero
    var quietRates: [SIMD3<Float>] = []

    /// The three rate loops, then pitch and roll.
    static let rateNames = ["controller.quad.pitch_rate", "controller.quad.roll_rate", "controller.quad.yaw_rate"]
    static let angleNames = ["controller.quad.angle_gain (pitch)", "controller.quad.angle_gain (roll)"]

    init(configured: QuadSettings, options: TuningOptions, rateHz: Double, maxTilt: Float) {
        self.configured = configured
        self.options = options
        self.rateHz = rateHz
        tiltLimit = maxTilt * Float(options.tiltFraction)
        let capacity = Int(options.measureSeconds * rateHz) + 1
        channels = Array(repeating: RelayChannel(capacity: capacity), count: 3)
    }

    var dt: Double { 1 / rateHz }
    var isDone: Bool { if case .done = phase { true } else { false } }

    static func withQuad<B, F>(_ loop: inout LiveLoop<B, F>, _ body: (inout QuadSettings) -> Void) {
        guard case .quad(var c) = loop.core.controller else { return }
        var s = c.settings
        body(&s)
        c.settings = s
        loop.core.controller = .quad(c)
    }

    func rateAmplitudes() -> [Float] {
        let a = Float(options.amplitude)
        // Yaw moves only by the propellers' reaction torque, a small fraction of the thrust
        // torque: four times the fraction keeps its limit cycle above the gyro's noise.
        return [configured.pitchRate.outputLimit * a, configured.rollRate.outputLimit * a, configured.yawRate.outputLimit * a * 4]
    }

    /// Observes one tick; true when the experiment is over (done or failed).
    mutating func observe<B, F>(_ loop: inout LiveLoop<B, F>, _ r: TickRecord) -> Bool {
        if failure != nil { return true }
        let euler = EulerAngles(r.attitude)
        switch phase {
        case .done:
            return true
        case .waiting:
            guard r.armState == .armed else { return false }
            quietRates.reserveCapacity(Int(Self.quietSeconds * rateHz) + 1)
            phase = .quiet(start: r.time)
            return false
        case .quiet(let start):
            if r.armState != .armed {
                failure = "the loop left armed (\(r.armState)) before the relay"
                return true
            }
            let elapsed = r.time - start
            // The first half lets the arming transient pass; the second is the noise.
            if elapsed >= Self.quietSeconds / 2 { quietRates.append(r.rotationRate) }
            guard elapsed >= Self.quietSeconds else { return false }
            hysteresis = Self.hysteresis(noise: quietRates)
            startRateRelays(&loop, at: r.time)
            return false
        case .rates(let start), .angles(let start):
            if r.armState != .armed {
                failure = "the loop left armed (\(r.armState)) \(String(format: "%.2f", r.time - start)) s into the relay"
                return true
            }
            if abs(euler.pitch) > tiltLimit || abs(euler.roll) > tiltLimit {
                failure = String(format: "tilt %.1f° passed the experiment's limit %.1f° (%.0f %% of safety.max_tilt_deg); lower --amplitude",
                                 max(abs(euler.pitch), abs(euler.roll)) * 180 / .pi, tiltLimit * 180 / .pi, options.tiltFraction * 100)
                return true
            }
            let elapsed = r.time - start
            if case .rates = phase {
                guard case .quad(let c) = loop.core.controller else { return true }
                // The relays' hysteresis: the setpoint moves by ± it with each relay's side, so a
                // relay turns over only once the rate is past the noise (Åström–Hägglund).
                let side = SIMD3<Float>(c.pitchLoop.output, c.rollLoop.output, c.yawLoop.output)
                let offset = SIMD3<Float>(side.x > 0 ? 1 : -1, side.y > 0 ? 1 : -1, side.z > 0 ? 1 : -1) * hysteresis
                Self.withQuad(&loop) { $0.rateOffset = offset }
                guard elapsed >= options.settleSeconds else { return false }
                channels[0].add(input: c.pitchLoop.output, output: r.rotationRate.x)
                channels[1].add(input: c.rollLoop.output, output: r.rotationRate.y)
                channels[2].add(input: c.yawLoop.output, output: r.rotationRate.z)
            } else {
                guard elapsed >= options.settleSeconds else { return false }
                let a = angleRelayAmplitude, k = angleRelayGain
                channels[0].add(input: max(-a, min(a, k * (0 - euler.pitch))), output: euler.pitch)
                channels[1].add(input: max(-a, min(a, k * (0 - euler.roll))), output: euler.roll)
            }
            guard elapsed >= options.settleSeconds + options.measureSeconds else { return false }
            experimentSeconds += elapsed
            if case .rates = phase { finishRates(&loop) } else { finishAngles(&loop) }
            return failure != nil || isDone
        }
    }

    /// Seconds with the configured gains before the relays: half to let arming settle, half
    /// to measure the rates' noise.
    static let quietSeconds = 1.0

    /// Each rate relay's hysteresis from the rates recorded with the configured gains: 1.5 ×
    /// the largest excursion from their straight-line trend, so noise alone never turns a relay
    /// over (Åström and Hägglund size the hysteresis above the noise band).
    static func hysteresis(noise rates: [SIMD3<Float>]) -> SIMD3<Float> {
        var result = SIMD3<Float>.zero
        for axis in 0..<3 {
            let trendless = RelayAnalysis.detrended(rates.map { Double($0[axis]) })
            result[axis] = Float(1.5 * (trendless.map(abs).max() ?? 0))
        }
        return result
    }

    mutating func startRateRelays<B, F>(_ loop: inout LiveLoop<B, F>, at time: Double) {
        let amplitudes = rateAmplitudes()
        // Half a degree per second of rate error spans the relay's linear band: narrow
        // beside the limit cycle, wide enough that sensor noise does not chatter it.
        let band = Float(0.5 * Double.pi / 180)
        Self.withQuad(&loop) { s in
            s.pitchRate = RelayPID.settings(amplitude: amplitudes[0], band: band, derivativeCutoffHz: s.pitchRate.derivativeCutoffHz)
            s.rollRate = RelayPID.settings(amplitude: amplitudes[1], band: band, derivativeCutoffHz: s.rollRate.derivativeCutoffHz)
            s.yawRate = RelayPID.settings(amplitude: amplitudes[2], band: band / 10, derivativeCutoffHz: s.yawRate.derivativeCutoffHz)
            s.angleGain = 1
            s.headingGain = 0
        }
        experimentSeconds += Self.quietSeconds
        phase = .rates(start: time)
    }

    mutating func finishRates<B, F>(_ loop: inout LiveLoop<B, F>) {
        let amplitudes = rateAmplitudes()
        let configuredLoops = [configured.pitchRate, configured.rollRate, configured.yawRate]
        var tuned: [PIDSettings] = []
        for index in 0..<3 {
            guard let point = channels[index].point(dt: dt) else {
                failure = "\(Self.rateNames[index]): no steady limit cycle of at least 8 ticks and 4 periods in \(options.measureSeconds) s of relay (\(seenPeriod(index)); hysteresis ±"
                    + String(format: "%.2f°/s", Double(hysteresis[index]) * 180 / .pi)
                    + "; vibration? notch it first, docs/tuning.md); raise --amplitude"
                return
            }
            let model = LoopModel(kind: .integratingWithDelay, through: point)
            let base = configuredLoops[index]
            let gains = TuningRule.rateLoop(point, derivativeCutoffHz: Double(base.derivativeCutoffHz))
            loops.append(LoopTuning(loop: Self.rateNames[index], relayAmplitude: Double(amplitudes[index]),
                                    relayHysteresis: Double(hysteresis[index]), point: point, model: model,
                                    gains: gains, margins: LoopMargins(model: model, controller: gains, rateHz: rateHz), predicted: nil))
            var pid = base
            pid.proportionalGain = Float(gains.kp)
            pid.integralGain = Float(gains.ki)
            pid.derivativeGain = Float(gains.kd)
            pid.derivativeCutoffHz = Float(gains.derivativeCutoffHz)
            tuned.append(pid)
        }
        angleRelayAmplitude = configured.maxTiltRate * Float(options.angleAmplitude)
        // A hundredth of a degree of angle error spans the linear band: far inside the limit
        // cycle, or sensor noise fed back through a linear band would bias the point toward
        // the inverse of the relay's gain.
        angleRelayGain = angleRelayAmplitude / Float(0.01 * Double.pi / 180)
        let (gain, amplitude) = (angleRelayGain, angleRelayAmplitude)
        Self.withQuad(&loop) { s in
            s.pitchRate = tuned[0]
            s.rollRate = tuned[1]
            s.yawRate = tuned[2]
            s.angleGain = gain
            s.maxTiltRate = amplitude
            s.rateOffset = .zero
        }
        let capacity = Int(options.measureSeconds * rateHz) + 1
        channels = Array(repeating: RelayChannel(capacity: capacity), count: 2)
        phase = .angles(start: loop.lastRecord.time)
    }

    mutating func finishAngles<B, F>(_ loop: inout LiveLoop<B, F>) {
        var angleGains: [Double] = []
        var models: [(LoopModel, RelayPoint)] = []
        for index in 0..<2 {
            guard let point = channels[index].point(dt: dt) else {
                failure = "\(Self.angleNames[index]): no steady limit cycle of at least 8 ticks and 4 periods in \(options.measureSeconds) s of relay (\(seenPeriod(index)))"
                return
            }
            let model = LoopModel(kind: .integratingWithDelay, through: point)
            angleGains.append(TuningRule.angleLoop(model).kp)
            models.append((model, point))
        }
        // One key holds both axes: the smaller gain keeps both within their margins.
        let angleGain = angleGains.min()!
        for (index, (model, point)) in models.enumerated() {
            let gains = PIDGains(kp: angleGain)
            let step = options.stepDegrees * .pi / 180
            loops.append(LoopTuning(loop: Self.angleNames[index], relayAmplitude: Double(angleRelayAmplitude), point: point, model: model,
                                    gains: gains, margins: LoopMargins(model: model, controller: gains, rateHz: rateHz),
                                    predicted: StepPrediction.response(model: model, controller: gains, rateHz: rateHz, start: 0,
                                                                       target: step, outputLimit: Double(configured.maxTiltRate))))
        }
        let maxTiltRate = configured.maxTiltRate
        Self.withQuad(&loop) { s in
            s.angleGain = Float(angleGain)
            s.maxTiltRate = maxTiltRate
        }
        phase = .done
    }

    /// What the relay's switching showed on channel `index`, for a failure message.
    func seenPeriod(_ index: Int) -> String {
        RelayAnalysis.period(RelayAnalysis.detrended(channels[index].input), dt: dt)
            .map { String(format: "a period of %.1f ticks", $0 / dt) } ?? "no period"
    }

    /// The configuration values the tuning gives.
    var values: [String: Double] {
        var v: [String: Double] = [:]
        for l in loops where l.loop.hasSuffix("_rate") {
            v[l.loop + ".kp"] = Tuner.rounded(l.gains.kp)
            v[l.loop + ".ki"] = Tuner.rounded(l.gains.ki)
            v[l.loop + ".kd"] = Tuner.rounded(l.gains.kd)
            v[l.loop + ".d_cutoff_hz"] = Tuner.rounded(l.gains.derivativeCutoffHz)
        }
        if let angle = loops.first(where: { $0.loop.hasPrefix("controller.quad.angle_gain") }) {
            v["controller.quad.angle_gain"] = Tuner.rounded(angle.gains.kp)
        }
        return v
    }
}

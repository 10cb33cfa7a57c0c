import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseRun

/// The balancing robot's experiment: once armed (upright), a relay on the pitch loop. An
/// inverted pendulum cannot hold a limit cycle under a bare relay — it falls — so the relay
/// acts on error + Td·(error rate), the lead the configured PD already has (kd/kp): the
/// robot then rocks about upright at the frequency where the plant's phase is −180° less
/// that lead, and the first harmonics of drive and pitch give the plant's response there.
struct BalanceExperiment {
    enum Phase { case waiting, relay(start: Double), done }
    let configured: BalanceSettings
    let options: TuningOptions
    let rateHz: Double
    let tiltLimit: Float
    var phase = Phase.waiting
    var channel: RelayChannel
    var loops: [LoopTuning] = []
    var failure: String?
    var experimentSeconds = 0.0
    let amplitude: Float
    let lead: Float
    /// The robot's motor pole b, 1/s (``LoopModel/motorPole``), from its figures.
    var motorPole = 0.0
    /// Its fall rate a, 1/s (``LoopModel/fallRate``), √(g/h) from its centre-of-mass height.
    var fallRate = 0.0

    static let name = "controller.balance.pitch"

    init(configured: BalanceSettings, options: TuningOptions, rateHz: Double, maxTilt: Float) {
        self.configured = configured
        self.options = options
        self.rateHz = rateHz
        tiltLimit = maxTilt * Float(options.tiltFraction)
        channel = RelayChannel(capacity: Int(options.measureSeconds * rateHz) + 1)
        amplitude = configured.pitch.outputLimit * Float(options.balanceAmplitude)
        let p = configured.pitch
        lead = p.proportionalGain > 0 ? min(0.2, max(0.01, p.derivativeGain / p.proportionalGain)) : 0.05
    }

    var dt: Double { 1 / rateHz }

    static func withBalance<B, F>(_ loop: inout LiveLoop<B, F>, _ body: (inout BalanceSettings) -> Void) {
        guard case .balance(var c) = loop.core.controller else { return }
        var s = c.settings
        body(&s)
        c.settings = s
        loop.core.controller = .balance(c)
    }

    mutating func observe<B, F>(_ loop: inout LiveLoop<B, F>, _ r: TickRecord) -> Bool {
        if failure != nil { return true }
        switch phase {
        case .done:
            return true
        case .waiting:
            guard r.armState == .armed else { return false }
            // A fifth of a degree of (lead-corrected) error spans the relay's linear band.
            let settings = RelayPID.settings(amplitude: amplitude, band: Float(0.01 * Double.pi / 180), lead: lead,
                                             derivativeCutoffHz: configured.pitch.derivativeCutoffHz)
            Self.withBalance(&loop) { $0.pitch = settings }
            phase = .relay(start: r.time)
            return false
        case .relay(let start):
            let pitch = EulerAngles(r.attitude).pitch
            if r.armState != .armed {
                failure = "the loop left armed (\(r.armState)) \(String(format: "%.2f", r.time - start)) s into the relay"
                return true
            }
            if abs(pitch - configured.pitchSetpoint) > tiltLimit {
                failure = String(format: "pitch %.1f° passed the experiment's limit %.1f° (%.0f %% of safety.max_tilt_deg); raise --amplitude so the relay holds it",
                                 pitch * 180 / .pi, tiltLimit * 180 / .pi, options.tiltFraction * 100)
                return true
            }
            let elapsed = r.time - start
            guard elapsed >= options.settleSeconds else { return false }
            guard case .balance(let c) = loop.core.controller else { return true }
            // The gyroscope's pitch rate rather than the pitch: measured, not estimated, so it
            // carries no estimator lag and no drift; the point is integrated back below.
            channel.add(input: c.pitchLoop.output, output: r.rotationRate.x)
            guard elapsed >= options.settleSeconds + options.measureSeconds else { return false }
            experimentSeconds += elapsed
            finish(&loop)
            return true
        }
    }

    mutating func finish<B, F>(_ loop: inout LiveLoop<B, F>) {
        guard var point = channel.point(dt: dt) else {
            failure = "\(Self.name): no steady limit cycle in \(options.measureSeconds) s of relay"
            return
        }
        // Pitch = rate / s.
        point.magnitude /= point.frequency
        point.outputAmplitude /= point.frequency
        point.phase -= .pi / 2
        if point.phase <= -.pi { point.phase += 2 * .pi }
        let model = LoopModel(kind: .doubleIntegratingWithDelay, through: point, motorPole: motorPole, fallRate: fallRate)
        let tilt = options.stepDegrees * .pi / 180
        let p = configured.pitch
        let rule = TuningRule.balanceLoop(model, derivativeCutoffHz: Double(p.derivativeCutoffHz),
                                          saturatingAt: tilt, outputLimit: Double(p.outputLimit), rateHz: rateHz)
        let gains = rule.gains
        // The prediction leaves the fall out (K e^(−θs)/(s(s + b))): the lean the fall leaves
        // is held by the drive feedback, which the model does not have.
        var falling = model
        falling.fallRate = 0
        loops.append(LoopTuning(loop: Self.name, relayAmplitude: Double(amplitude), point: point, model: model, gains: gains,
                                margins: LoopMargins(model: model, controller: gains, rateHz: rateHz),
                                predicted: StepPrediction.response(model: falling, controller: gains, rateHz: rateHz, start: tilt,
                                                                   target: 0, outputLimit: Double(p.outputLimit),
                                                                   integralLimit: Double(p.integralLimit)),
                                limitedBy: rule.limit, closedLoopSpeed: rule.speed))
        var tuned = p
        tuned.proportionalGain = Float(gains.kp)
        tuned.integralGain = Float(gains.ki)
        tuned.derivativeGain = Float(gains.kd)
        Self.withBalance(&loop) { $0.pitch = tuned }
        phase = .done
    }

    var values: [String: Double] {
        guard let l = loops.first else { return [:] }
        return [Self.name + ".kp": Tuner.rounded(l.gains.kp), Self.name + ".ki": Tuner.rounded(l.gains.ki),
                Self.name + ".kd": Tuner.rounded(l.gains.kd)]
    }
}

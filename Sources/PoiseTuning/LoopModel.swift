import Foundation

/// The low-order model a relay point identifies: a gain, an integrator or two, and a dead
/// time that lumps every lag (motor, filters, the loop's own sample delay).
///
/// One frequency point fixes two parameters: with the structure known, |G(jωu)| gives the
/// gain and the phase beyond the integrators' gives the dead time.
public struct LoopModel: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// K e^(−θs) / s: a rate loop (torque → rate) or an angle loop (rate setpoint → angle).
        case integratingWithDelay = "integrator_with_delay"
        /// K e^(−θs) / s²: a balancing robot's pitch (drive → pitch) well above its fall rate.
        case doubleIntegratingWithDelay = "double_integrator_with_delay"
    }
    public var kind: Kind
    /// Gain K, output unit per input unit per s (per s² for the double integrator).
    public var gain: Double
    /// Dead time θ, s.
    public var delay: Double
    /// The balancing robot's motor pole b, 1/s: K e^(−θs)/(s(s + b)), the motors' back-EMF
    /// damping the roll that a drive starts (0: none, the plain double integrator). Known
    /// from the robot's figures, not identified: one relay point fixes two parameters.
    public var motorPole: Double = 0
    /// The balancing robot's fall rate a, 1/s: the pendulum's unstable pole, √(g/h) for a
    /// centre of mass h above the axle (0: none). Also from the robot's figures. With it the
    /// model is K e^(−θs) s/((s + b)(s² − a²)): a voltage-driven motor is a speed source below
    /// b, the wheels' acceleration tips the body, and gravity tips it further (the zero at
    /// s = 0: no drive holds a tilt still). Above a it is K e^(−θs)/(s(s + b)), and its phase
    /// is that one's at every ω, so the dead time it gives is the same.
    public var fallRate: Double = 0

    public init(kind: Kind, gain: Double, delay: Double) {
        self.kind = kind
        self.gain = gain
        self.delay = delay
    }

    /// Integrators: each adds −90° and divides by ω.
    var integrators: Int { kind == .integratingWithDelay ? 1 : 2 }

    /// The model through a measured point (`motorPole`: the double integrator's b, above).
    ///
    /// Without b the dead time took only part of a slow robot's actuator delay: the
    /// back-EMF pole leads the double integrator by 90° − atan(ω/b), which grows as a longer
    /// delay slows the limit cycle (the default robot, b ≈ 40 /s: 15 ms of delay gave 9.7 ms
    /// more dead time).
    public init(kind: Kind, through point: RelayPoint, motorPole: Double = 0, fallRate: Double = 0) {
        let w = point.frequency
        let n = kind == .integratingWithDelay ? 1 : 2
        let b = kind == .doubleIntegratingWithDelay ? max(0, motorPole) : 0
        let a = kind == .doubleIntegratingWithDelay ? max(0, fallRate) : 0
        let integratorPhase = n == 2 ? Self.pitchPhase(w, b, a) : -.pi / 2
        var lag = integratorPhase - point.phase
        lag = lag.truncatingRemainder(dividingBy: 2 * .pi)
        if lag < 0 { lag += 2 * .pi }
        // K such that |G(jω)| = K ω / (|jω + b| (ω² + a²)) (K / ω² without b and a).
        let gain = n == 2 ? point.magnitude * Self.pitchDenominator(w, b, a) : point.magnitude * w
        self.init(kind: kind, gain: gain, delay: lag / w)
        self.motorPole = b
        self.fallRate = a
    }

    /// |G(jω)| × K⁻¹ inverted: |jω + b| |(jω)² − a²| / ω, and G's phase without the dead time.
    static func pitchDenominator(_ w: Double, _ b: Double, _ a: Double) -> Double {
        (w * w + b * b).squareRoot() * (w * w + a * a) / w
    }

    static func pitchPhase(_ w: Double, _ b: Double, _ a: Double) -> Double {
        b > 0 ? -.pi / 2 - atan(w / b) : -.pi
    }

    /// |G(jω)| and its phase, rad (continuous in ω, not wrapped).
    public func response(_ w: Double) -> (magnitude: Double, phase: Double) {
        if integrators == 2 {
            return (gain / Self.pitchDenominator(w, motorPole, fallRate), Self.pitchPhase(w, motorPole, fallRate) - w * delay)
        }
        return (gain / w, -.pi / 2 - w * delay)
    }
}

/// A PID as `PIDController` runs it, in the frequency domain: kp + ki/s + kd s/(1 + s/ωf)
/// (derivative on the measurement, so this is the loop's feedback path; a setpoint step sees
/// kp + ki/s only).
public struct PIDGains: Sendable, Equatable, Codable {
    public var kp: Double
    public var ki: Double
    public var kd: Double
    /// Derivative low-pass corner, Hz; 0 for none.
    public var derivativeCutoffHz: Double

    public init(kp: Double, ki: Double = 0, kd: Double = 0, derivativeCutoffHz: Double = 0) {
        self.kp = kp
        self.ki = ki
        self.kd = kd
        self.derivativeCutoffHz = derivativeCutoffHz
    }

    func response(_ w: Double) -> (re: Double, im: Double) {
        var re = kp, im = -ki / w
        if kd != 0 {
            // kd jω / (1 + jω/ωf)
            let wf = derivativeCutoffHz > 0 ? 2 * .pi * derivativeCutoffHz : .infinity
            let x = w / wf
            let d = 1 + x * x
            re += kd * w * x / d
            im += kd * w / d
        }
        return (re, im)
    }
}

/// Stability margins of controller × model.
public struct LoopMargins: Sendable, Equatable, Codable {
    /// Gain crossover, rad/s.
    public var crossover: Double
    /// Phase margin, degrees.
    public var phaseMargin: Double
    /// Factor by which the loop gain may rise before instability (nil: none found below
    /// the Nyquist frequency).
    public var gainMargin: Double?
    /// Factor by which it may fall (a loop around an unstable or double-integrating plant
    /// also has a lower limit), nil when there is none.
    public var lowerGainMargin: Double?

    /// Scans ω logarithmically up to the Nyquist frequency of the loop.
    public init?(model: LoopModel, controller: PIDGains, rateHz: Double) {
        let top = Double.pi * rateHz
        let steps = 4000
        let low = 0.01
        var previous: (w: Double, mag: Double, phase: Double)? = nil
        var crossover: (w: Double, phase: Double)? = nil
        var upper: Double? = nil, lower: Double? = nil
        for i in 0...steps {
            let w = low * pow(top / low, Double(i) / Double(steps))
            let g = model.response(w), c = controller.response(w)
            let mag = g.magnitude * (c.re * c.re + c.im * c.im).squareRoot()
            let phase = g.phase + atan2(c.im, c.re)
            if let p = previous {
                if crossover == nil, p.mag >= 1, mag < 1 { crossover = (w, phase) }
                let crossed = (p.phase + .pi) * (phase + .pi) <= 0 && p.phase != phase
                if crossed {
                    if crossover == nil { lower = lower ?? mag } else if upper == nil { upper = 1 / mag }
                }
            }
            previous = (w, mag, phase)
        }
        guard let crossover else { return nil }
        self.crossover = crossover.w
        phaseMargin = (crossover.phase + .pi) * 180 / .pi
        gainMargin = upper
        lowerGainMargin = lower
    }
}

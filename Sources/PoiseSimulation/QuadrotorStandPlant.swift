import PoiseDeviceSettings
import PoiseMath

/// Where a quadrotor's motors sit and which way they spin, in ArduPilot's numbering.
/// Body axes: x right, y forward, z up. Spin +1 is counter-clockwise seen from above.
public struct MotorGeometry: Sendable, Equatable {
    /// Motor positions in the body x–y plane, m.
    public var positions: [SIMD2<Double>]
    public var spins: [Double]

    /// X: 1 front-right CCW, 2 back-left CCW, 3 front-left CW, 4 back-right CW.
    public static func quadX(arm: Double = SimulatedQuadrotor().armLength) -> MotorGeometry {
        let d = arm / 2.squareRoot()
        return MotorGeometry(positions: [SIMD2(d, d), SIMD2(-d, -d), SIMD2(-d, d), SIMD2(d, -d)], spins: [1, 1, -1, -1])
    }

    /// +: 1 right CCW, 2 left CCW, 3 front CW, 4 back CW.
    public static func quadPlus(arm: Double = SimulatedQuadrotor().armLength) -> MotorGeometry {
        MotorGeometry(positions: [SIMD2(arm, 0), SIMD2(-arm, 0), SIMD2(0, arm), SIMD2(0, -arm)], spins: [1, 1, -1, -1])
    }
}

/// A quadrotor on a three-axis gimbal test stand: it turns freely about its centre and
/// cannot translate, so the accelerometer (at the centre) sees gravity only. Rigid-body
/// rotation (Euler's equations), each motor a first-order lag from throttle to thrust,
/// reaction torques, rotational drag and an external torque for gusts. Integrated in Double
/// with fixed-step RK4; torque-free it conserves energy and angular momentum (tested).
public struct QuadrotorStandPlant: Sendable {
    /// Physical parameters, SI units; the defaults are ``SimulatedQuadrotor``'s (a ≈ 250 mm
    /// quad), the description `simulation.quadrotor` gives.
    public struct Parameters: Sendable, Equatable {
        /// Principal moments of inertia about body x, y, z, kg·m².
        public var inertia: SIMD3<Double>
        public var geometry: MotorGeometry
        /// Thrust of one motor at full throttle, N (thrust grows with throttle²).
        public var maximumThrust: Double
        /// Motor + propeller time constant, s.
        public var motorTimeConstant: Double
        /// Reaction torque per newton of thrust, m.
        public var torqueCoefficient: Double
        /// Rotational drag, N·m per rad/s (air and the stand's bearings).
        public var rotationalDrag: Double
        /// Rotor speed at full throttle, rad/s.
        public var maximumRotorSpeed: Double
        /// Where the IMU is off the pivot, body frame, m.
        public var imuOffset: SIMD3<Double>
        /// One rotor's vibration at full speed, fundamental: accelerometer m/s², gyroscope
        /// rad/s (growing with rotor speed²); and the harmonics it has.
        public var vibrationAcceleration: Double
        public var vibrationRate: Double
        public var vibrationHarmonics: Int
        /// Largest integration step, s.
        public var maximumStep = 0.001

        public init() { self.init(SimulatedQuadrotor()) }

        /// The plant a description gives, its motors on an X (or, `plus`, a +) of its arms.
        public init(_ quad: SimulatedQuadrotor, plus: Bool = false) {
            inertia = quad.inertia
            geometry = plus ? .quadPlus(arm: quad.armLength) : .quadX(arm: quad.armLength)
            maximumThrust = quad.maximumThrust
            motorTimeConstant = quad.motorTimeConstant
            torqueCoefficient = quad.torqueCoefficient
            rotationalDrag = quad.rotationalDrag
            maximumRotorSpeed = quad.maximumRotorSpeed
            imuOffset = quad.imuOffset
            vibrationAcceleration = quad.vibrationAcceleration
            vibrationRate = quad.vibrationRate
            vibrationHarmonics = quad.vibrationHarmonics
        }

        var vibrates: Bool { vibrationAcceleration > 0 || vibrationRate > 0 }
    }

    public var parameters: Parameters { didSet { step = Self.integrationStep(parameters) } }
    /// ``integrationStep``, worked out when the parameters are set (not every tick).
    var step: Double?
    /// Body-to-ENU attitude (w, x, y, z).
    public private(set) var orientation: SIMD4<Double>
    /// Body angular rate, rad/s.
    public private(set) var rate = SIMD3<Double>.zero
    /// Each motor's present thrust, N.
    public private(set) var thrust = SIMD4<Double>.zero
    public private(set) var time = 0.0
    /// When and why the integration broke down (PlantDivergence.swift); nil while it holds.
    /// From then on the frame stays at its last finite attitude, at rest, and time alone moves on.
    public private(set) var divergence: PlantDivergence?
    /// Body angular acceleration of the last step, rad/s², for an IMU off the pivot.
    public private(set) var angularAcceleration = SIMD3<Double>.zero
    /// Each rotor's angle, rad (advanced only while the rotors vibrate the frame).
    public private(set) var rotorPhases: SIMD4<Double>
    /// Torque from outside (a gust), body frame, N·m.
    public var externalTorque = SIMD3<Double>.zero
    public var magneticField: SIMD3<Double>

    /// - Parameter rotorPhases: each rotor's starting angle, rad (drawn from the run's seed).
    public init(parameters: Parameters = Parameters(), attitude: Quaternion = .identity,
                magneticField: SIMD3<Float> = typicalGeomagneticField, rotorPhases: SIMD4<Double> = .zero) {
        self.parameters = parameters
        step = Self.integrationStep(parameters)
        self.rotorPhases = rotorPhases
        orientation = SIMD4(Double(attitude.w), Double(attitude.x), Double(attitude.y), Double(attitude.z))
        self.magneticField = SIMD3<Double>(magneticField)
    }

    /// Sets the angular rate (tests: a torque-free spin).
    public mutating func setRate(_ rate: SIMD3<Double>) { self.rate = rate }

    struct State {
        var q: SIMD4<Double>
        var w: SIMD3<Double>
        var t: SIMD4<Double>
        func adding(_ d: State, _ h: Double) -> State { State(q: q + h * d.q, w: w + h * d.w, t: t + h * d.t) }
    }

    /// Body torque from the motors' thrusts, N·m.
    func motorTorque(_ t: SIMD4<Double>) -> SIMD3<Double> {
        var torque = SIMD3<Double>.zero
        let g = parameters.geometry
        for i in 0..<min(4, g.positions.count) {
            let p = g.positions[i]
            torque += SIMD3(p.y * t[i], -p.x * t[i], -g.spins[i] * parameters.torqueCoefficient * t[i])
        }
        return torque
    }

    func derivative(_ s: State, command: SIMD4<Double>) -> State {
        let p = parameters
        let I = p.inertia
        let angularMomentum = I * s.w
        let gyroscopic = SIMD3(s.w.y * angularMomentum.z - s.w.z * angularMomentum.y,
                               s.w.z * angularMomentum.x - s.w.x * angularMomentum.z,
                               s.w.x * angularMomentum.y - s.w.y * angularMomentum.x)
        let torque = motorTorque(s.t) + externalTorque - p.rotationalDrag * s.w - gyroscopic
        let wdot = torque / I
        // q̇ = ½ q ⊗ (0, ω)
        let q = s.q, w = s.w
        let qdot = 0.5 * SIMD4(-q.y * w.x - q.z * w.y - q.w * w.z,
                               q.x * w.x + q.z * w.z - q.w * w.y,
                               q.x * w.y + q.w * w.x - q.y * w.z,
                               q.x * w.z + q.y * w.y - q.z * w.x)
        let tdot = p.motorTimeConstant > 0 ? (command - s.t) / p.motorTimeConstant : .zero
        return State(q: qdot, w: wdot, t: tdot)
    }

    /// The fastest decay rate of the equations, 1/s: the motors' lag (1/τ) and the rotational
    /// drag over the smallest moment of inertia. The default quad's is 33 /s.
    public var stiffness: Double { Self.stiffness(parameters) }

    static func stiffness(_ p: Parameters) -> Double {
        let lag = p.motorTimeConstant > 0 ? 1 / p.motorTimeConstant : 0
        return max(lag, p.rotationalDrag / p.inertia.min())
    }

    /// The step ``advance(to:throttles:)`` takes: ``Parameters/maximumStep``, finer where the
    /// equations are stiff so RK4 stays within h λ ≤ 2 (nil: finer than 1 µs would be needed).
    public var integrationStep: Double? { step }

    static func integrationStep(_ p: Parameters) -> Double? {
        let lambda = stiffness(p)
        guard lambda.isFinite else { return nil }
        let step = lambda > 0 ? min(p.maximumStep, BalancingRobotPlant.stableStepTimesRate / lambda) : p.maximumStep
        return step >= BalancingRobotPlant.finestStep ? step : nil
    }

    /// Advances to `newTime` (s) with the throttles (0…1) held.
    public mutating func advance(to newTime: Double, throttles: SIMD4<Double>) {
        guard newTime > time else { return }
        guard divergence == nil else { time = newTime; return }
        let clamped = throttles.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
        let command = parameters.maximumThrust * clamped * clamped
        guard let step else {
            divergence = PlantDivergence(time: time, cause: "too stiff to integrate: the motors' lag and the rotational drag decay at "
                + "\(PlantDivergence.rate(stiffness)) /s, which needs steps finer than \(Int(BalancingRobotPlant.finestStep * 1e6)) µs")
            rate = .zero; angularAcceleration = .zero
            time = newTime
            return
        }
        let steps = max(1, Int(((newTime - time) / step).rounded(.up)))
        let h = (newTime - time) / Double(steps)
        var s = State(q: orientation, w: rate, t: thrust)
        if parameters.motorTimeConstant <= 0 { s.t = command }
        for index in 0..<steps {
            let k1 = derivative(s, command: command)
            let k2 = derivative(s.adding(k1, h / 2), command: command)
            let k3 = derivative(s.adding(k2, h / 2), command: command)
            let k4 = derivative(s.adding(k3, h), command: command)
            s = State(q: s.q + h / 6 * (k1.q + 2 * k2.q + 2 * k3.q + k4.q),
                      w: s.w + h / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w),
                      t: s.t + h / 6 * (k1.t + 2 * k2.t + 2 * k3.t + k4.t))
            s.q /= (s.q * s.q).sum().squareRoot()
            let finite = { (v: SIMD4<Double>) in v.x.isFinite && v.y.isFinite && v.z.isFinite && v.w.isFinite }
            if !finite(s.q) || !finite(SIMD4(s.w, 0)) || !finite(s.t) {
                let parts = [("attitude", finite(s.q)), ("body rate", finite(SIMD4(s.w, 0))), ("motor thrust", finite(s.t))]
                divergence = PlantDivergence(time: time + Double(index + 1) * h,
                                             cause: "non-finite " + parts.filter { !$0.1 }.map(\.0).joined(separator: ", "))
                rate = .zero; angularAcceleration = .zero
                time = newTime
                return
            }
            if parameters.vibrates { rotorPhases = (rotorPhases + h * rotorSpeeds(s.t)).wrappedTurns }
        }
        if parameters.imuOffset != .zero { angularAcceleration = derivative(s, command: command).w }
        orientation = s.q; rate = s.w; thrust = s.t
        time = newTime
    }

    public var attitude: Quaternion {
        Quaternion(w: Float(orientation.x), x: Float(orientation.y), y: Float(orientation.z), z: Float(orientation.w))
    }

    /// Rotational kinetic energy, J.
    public var rotationalEnergy: Double { 0.5 * (parameters.inertia * rate * rate).sum() }
    /// |I ω|, kg·m²/s.
    public var angularMomentum: Double { let L = parameters.inertia * rate; return (L * L).sum().squareRoot() }

    /// Each rotor's speed for these thrusts, rad/s (thrust grows with speed²).
    func rotorSpeeds(_ thrusts: SIMD4<Double>) -> SIMD4<Double> {
        let p = parameters
        var speeds = SIMD4<Double>.zero
        for i in 0..<4 { speeds[i] = p.maximumRotorSpeed * (max(0, thrusts[i]) / p.maximumThrust).squareRoot() }
        return speeds
    }

    /// The rotors' vibration now: each rotor's at its speed, with amplitudes growing with
    /// speed² (an imbalance's force).
    public var vibration: RotorVibration {
        var v = RotorVibration()
        guard parameters.vibrates else { return v }
        let speeds = rotorSpeeds(thrust)
        let fraction = speeds / parameters.maximumRotorSpeed
        v.referenceTime = time
        v.phases = rotorPhases
        v.speeds = speeds
        let g = parameters.geometry
        for i in 0..<min(4, g.spins.count) { v.spins[i] = g.spins[i] }
        v.acceleration = parameters.vibrationAcceleration * fraction * fraction
        v.rate = parameters.vibrationRate * fraction * fraction
        v.harmonics = parameters.vibrationHarmonics
        return v
    }

    /// What an IMU at `imuOffset` from the centre measures now (its vibration evaluated by
    /// the chip at each of its samples).
    public var motion: HeldMotion {
        let q = attitude
        var force = q.inverseRotate(SIMD3(0, 0, Gravity.standard))
        let r = parameters.imuOffset
        if r != .zero {
            // The pivot is fixed: a point r off it accelerates by ω̇ × r + ω × (ω × r).
            force += SIMD3<Float>(crossD(angularAcceleration, r) + crossD(rate, crossD(rate, r)))
        }
        var motion = HeldMotion(specificForce: force, angularRate: SIMD3<Float>(rate),
                                magneticField: q.inverseRotate(SIMD3<Float>(magneticField)))
        motion.vibration = vibration
        return motion
    }
}

extension SIMD4<Double> {
    /// Each angle wrapped into one turn, so long runs keep full precision.
    var wrappedTurns: SIMD4<Double> {
        var v = self
        for i in 0..<4 { v[i] = v[i].truncatingRemainder(dividingBy: 2 * .pi) }
        return v
    }
}

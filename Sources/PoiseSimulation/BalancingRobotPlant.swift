import PoiseDeviceSettings
import PoiseMath

/// A two-wheeled balancing robot: an inverted pendulum on a wheel axle, driven by two DC gear
/// motors. The axle is body x, the robot drives along body +y, and the body's pitch (about
/// x) is positive leaning back, as Core Motion measures it. docs/simulation.md derives the
/// equations.
///
/// Integrated in Double with fixed-step RK4 (sub-steps ≤ ``Parameters/maximumStep``), so a
/// 100 Hz caller is as accurate as a 1 kHz one; without motors and friction the mechanical
/// energy is conserved to integration error (tested over a minute).
public struct BalancingRobotPlant: Sendable {
    /// Physical parameters, SI units; the defaults are ``SimulatedBalancingRobot``'s (a small
    /// hobby robot), the description `simulation.balancing_robot` gives.
    public struct Parameters: Sendable, Equatable {
        /// Body mass (without wheels), kg.
        public var bodyMass: Double
        /// Axle to the body's centre of mass, m.
        public var centreOfMassHeight: Double
        /// Body moment of inertia about its centre of mass, pitch axis, kg·m².
        public var bodyInertia: Double
        /// Body moment of inertia about the vertical, kg·m².
        public var bodyYawInertia: Double
        /// Mass of one wheel, kg.
        public var wheelMass: Double
        /// Wheel radius, m.
        public var wheelRadius: Double
        /// Distance between the wheels, m.
        public var trackWidth: Double
        /// DC motor: terminal resistance, Ω.
        public var motorResistance: Double
        /// Torque constant = back-EMF constant, N·m/A = V·s/rad (motor shaft).
        public var motorConstant: Double
        /// Gearbox ratio (motor turns per wheel turn).
        public var gearRatio: Double
        /// Viscous friction at the wheel, N·m·s/rad.
        public var wheelFriction: Double
        /// Height of the IMU above the axle, along the body, m.
        public var sensorHeight: Double
        /// Open-circuit battery voltage, V: what ``MotorInput/duty(_:)`` scales.
        public var batteryVoltage: Double
        /// Battery internal resistance, Ω (0: a stiff supply).
        public var batteryResistance: Double
        /// Drive fraction below which the motor driver does not switch on (0: none).
        public var motorDeadband: Double
        /// Static (Coulomb) friction of motor and gearbox at the wheel, N·m (0: none).
        public var staticFriction: Double
        /// Gear backlash at the wheel, rad (0: none).
        public var backlash: Double
        /// The IMU's offset from its place `sensorHeight` up the centre line, body frame, m.
        public var imuOffset: SIMD3<Double>
        /// Largest tilt either way, rad: the body lies on the floor there.
        public var floorTilt = 1.4
        /// Largest integration step, s (RK4 at 1 ms keeps the energy within 1e-6 over a minute).
        public var maximumStep = 0.001

        public init() { self.init(SimulatedBalancingRobot()) }

        /// The plant a description gives (motor constants from its datasheet figures).
        public init(_ robot: SimulatedBalancingRobot) {
            bodyMass = robot.bodyMass
            centreOfMassHeight = robot.centreOfMassHeight
            bodyInertia = robot.bodyInertia
            bodyYawInertia = robot.bodyYawInertia
            wheelMass = robot.wheelMass
            wheelRadius = robot.wheelRadius
            trackWidth = robot.wheelBase
            motorResistance = robot.motorResistance
            motorConstant = robot.motorConstant
            gearRatio = robot.gearRatio
            wheelFriction = robot.viscousFriction
            sensorHeight = robot.imuHeight
            batteryVoltage = robot.batteryVoltage
            batteryResistance = robot.batteryResistance
            motorDeadband = robot.motorDeadband
            staticFriction = robot.staticFriction
            backlash = robot.backlash
            imuOffset = robot.imuOffset
        }

        /// Moment of inertia of one wheel about its axle (a solid disc), kg·m².
        public var wheelInertia: Double { wheelMass * wheelRadius * wheelRadius / 2 }
    }

    /// What each motor's terminals get.
    public enum MotorInput: Sendable, Equatable {
        /// A terminal voltage, V (positive drives forward).
        case voltage(Double)
        /// Terminals shorted: back-EMF current brakes the wheel.
        case brake
        /// Terminals open: no current, no torque.
        case coast
        /// The motor driver switched at this fraction (−1…1) of the battery: below the
        /// deadband it stays off (coast); the battery sags under the motors' current.
        case duty(Double)
    }

    public var parameters: Parameters { didSet { step = Self.integrationStep(parameters) } }
    /// ``integrationStep``, worked out when the parameters are set (not every tick).
    var step: Double?
    /// Axle travel along the heading, m, and its rate.
    public private(set) var position = 0.0, speed = 0.0
    /// Forward lean φ = −pitch, rad, and its rate (forward positive inside the model).
    public private(set) var lean = 0.0, leanRate = 0.0
    /// Heading ψ (counter-clockwise from north, as Core Motion's yaw), rad, and its rate.
    public private(set) var heading = 0.0, headingRate = 0.0
    /// Time, s.
    public private(set) var time = 0.0
    /// The body lies on the floor.
    public private(set) var fallen = false
    /// When and why the integration broke down (PlantDivergence.swift); nil while it holds.
    /// From then on the plant stays at its last finite state and time alone moves on.
    public private(set) var divergence: PlantDivergence?
    /// Axle (forward), lean and heading accelerations of the last step, for the accelerometer.
    var acceleration = 0.0, leanAcceleration = 0.0, headingAcceleration = 0.0
    /// Each gear train's play, rad at the wheel: the motor side's angle less the wheel's,
    /// within ±backlash/2 (engaged at either end).
    public private(set) var gapLeft = 0.0, gapRight = 0.0
    /// The battery's terminal voltage (V) and current (A) at the end of the last step.
    public private(set) var batteryTerminalVoltage: Double
    public private(set) var batteryCurrent = 0.0
    /// The world (ENU) magnetic field, µT.
    public var magneticField: SIMD3<Double>

    /// - Parameter pitch: initial pitch, rad (positive leans back).
    public init(parameters: Parameters = Parameters(), pitch: Double = 0, heading: Double = 0,
                magneticField: SIMD3<Float> = typicalGeomagneticField) {
        self.parameters = parameters
        step = Self.integrationStep(parameters)
        batteryTerminalVoltage = parameters.batteryVoltage
        lean = -pitch
        self.heading = heading
        self.magneticField = SIMD3<Double>(magneticField)
    }

    /// Core Motion pitch, rad (positive leaning back).
    public var pitch: Double { -lean }
    public var pitchRate: Double { -leanRate }

    struct State {
        var x, v, phi, omega, psi, psiRate: Double
        /// The gear trains' play, rad (constant without backlash).
        var gapLeft = 0.0, gapRight = 0.0
    }

    /// What a state and the motor inputs give: the body's accelerations, the rates the
    /// gear play changes at, and the battery's terminal voltage and current.
    struct Rates {
        var xdd, phidd, psidd: Double
        var gapLeft = 0.0, gapRight = 0.0
        var supply: Double
        var current = 0.0
    }

    /// The body's accelerations for a state and motor inputs.
    func accelerations(_ s: State, left: MotorInput, right: MotorInput) -> Rates {
        let p = parameters
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        // Wheel speeds relative to the body (the motors sit in the body), rad/s.
        let turn = s.psiRate * p.trackWidth / 2
        let wheelLeft = (s.v - turn) / r - s.omega
        let wheelRight = (s.v + turn) / r - s.omega
        var supply = p.batteryVoltage, current = 0.0
        if p.batteryResistance > 0 {
            (supply, current) = battery(left, wheelLeft, s.gapLeft, right, wheelRight, s.gapRight)
        }
        let (tauLeft, gapLeft) = wheel(left, relativeSpeed: wheelLeft, gap: s.gapLeft, supply: supply)
        let (tauRight, gapRight) = wheel(right, relativeSpeed: wheelRight, gap: s.gapRight, supply: supply)
        let tau = tauLeft + tauRight
        let a11 = M + 2 * p.wheelMass + 2 * p.wheelInertia / (r * r)
        let a12 = M * L * _cosD(s.phi)
        let a22 = M * L * L + p.bodyInertia
        // a11 ẍ + a12 φ̈ = τ/r + M L sinφ φ̇² ; a12 ẍ + a22 φ̈ = M g L sinφ − τ
        let b1 = tau / r + M * L * _sinD(s.phi) * s.omega * s.omega
        let b2 = M * Double(Gravity.standard) * L * _sinD(s.phi) - tau
        let det = a11 * a22 - a12 * a12
        let xdd = (b1 * a22 - a12 * b2) / det
        let phidd = (a11 * b2 - a12 * b1) / det
        // Yaw: the wheels' ground forces ±τ/r at ±track/2.
        let yawInertia = p.bodyYawInertia + 2 * (p.wheelMass + p.wheelInertia / (r * r)) * (p.trackWidth / 2) * (p.trackWidth / 2)
        let psidd = (tauRight - tauLeft) / r * (p.trackWidth / 2) / yawInertia
        return Rates(xdd: xdd, phidd: phidd, psidd: psidd, gapLeft: gapLeft, gapRight: gapRight, supply: supply, current: current)
    }

    /// The terminal voltage and current of a battery with internal resistance feeding two
    /// motors through H-bridges: each motor draws i = (d·V − e)/R at duty d and back-EMF e,
    /// the battery d·i of it, so V = V₀ − R_b Σ d·i solves in closed form. A motor whose gears
    /// are in their play turns freely and draws nothing.
    func battery(_ left: MotorInput, _ wheelLeft: Double, _ gapLeft: Double,
                 _ right: MotorInput, _ wheelRight: Double, _ gapRight: Double) -> (voltage: Double, current: Double) {
        let p = parameters
        var squares = 0.0, emf = 0.0
        func draw(_ input: MotorInput, _ speed: Double, _ gap: Double) {
            guard case .duty(let d) = input, engaged(input, relativeSpeed: speed, gap: gap, supply: p.batteryVoltage) else { return }
            squares += d * d
            emf += d * p.motorConstant * p.gearRatio * speed
        }
        draw(left, wheelLeft, gapLeft)
        draw(right, wheelRight, gapRight)
        let voltage = (p.batteryVoltage + p.batteryResistance * emf / p.motorResistance)
            / (1 + p.batteryResistance * squares / p.motorResistance)
        return (voltage, (p.batteryVoltage - voltage) / p.batteryResistance)
    }

    /// The speed the motor side of a gear train turns at, rad/s at the wheel relative to the
    /// body, while its gears are in their play: the bare motor runs at once to its no-load
    /// speed (its inertia is not modelled), a shorted one stops, an open one drifts along.
    func freeSpeed(_ input: MotorInput, relativeSpeed: Double, supply: Double) -> Double {
        let p = parameters
        switch input {
        case .coast: return relativeSpeed
        case .brake: return 0
        case .voltage(let v): return v / (p.motorConstant * p.gearRatio)
        case .duty(let d): return d * supply / (p.motorConstant * p.gearRatio)
        }
    }

    /// Whether the gears mesh: at one end of the play with the motor pushing into it.
    func engaged(_ input: MotorInput, relativeSpeed: Double, gap: Double, supply: Double) -> Bool {
        let half = parameters.backlash / 2
        guard half > 0 else { return true }
        let free = freeSpeed(input, relativeSpeed: relativeSpeed, supply: supply)
        return gap >= half && free >= relativeSpeed || gap <= -half && free <= relativeSpeed
    }

    /// Torque on one wheel from its motor (through the gearbox) and friction, N·m, and the
    /// rate its gear play changes at, rad/s.
    func wheel(_ input: MotorInput, relativeSpeed: Double, gap: Double, supply: Double) -> (torque: Double, gapRate: Double) {
        let p = parameters
        let motorSpeed = relativeSpeed * p.gearRatio
        var friction = -p.wheelFriction * relativeSpeed
        let motor: Double
        switch input {
        case .coast:
            if p.staticFriction > 0 { friction += coulombFriction(relativeSpeed: relativeSpeed, drive: 0) }
            return (friction, 0)
        case .brake:
            motor = p.gearRatio * p.motorConstant * (-p.motorConstant * motorSpeed) / p.motorResistance
        case .voltage(let v):
            let current = (v - p.motorConstant * motorSpeed) / p.motorResistance
            motor = p.gearRatio * p.motorConstant * current
        case .duty(let d):
            let current = (d * supply - p.motorConstant * motorSpeed) / p.motorResistance
            motor = p.gearRatio * p.motorConstant * current
        }
        if p.backlash > 0, !engaged(input, relativeSpeed: relativeSpeed, gap: gap, supply: supply) {
            if p.staticFriction > 0 { friction += coulombFriction(relativeSpeed: relativeSpeed, drive: 0) }
            return (friction, freeSpeed(input, relativeSpeed: relativeSpeed, supply: supply) - relativeSpeed)
        }
        if p.staticFriction > 0 { friction += coulombFriction(relativeSpeed: relativeSpeed, drive: motor) }
        return (friction + motor, 0)
    }

    /// Coulomb friction with sticking: a turning wheel feels the full static friction against
    /// its turning; one (nearly) stopped holds against the motor's torque up to it, and a stiff
    /// damping within ``stickSpeed`` stops it there (RK4 at 1 ms steps stays stable).
    func coulombFriction(relativeSpeed: Double, drive: Double) -> Double {
        let limit = parameters.staticFriction
        let band = stickSpeed
        if abs(relativeSpeed) > band { return relativeSpeed > 0 ? -limit : limit }
        return max(-limit, min(limit, -drive - limit * relativeSpeed / band))
    }

    /// Below this wheel speed (rad/s, relative to the body) static friction holds the wheel:
    /// 0.05 rad/s, wider for friction so strong the damping would outrun the integration.
    var stickSpeed: Double { max(0.05, parameters.staticFriction / 0.2) }

    /// A motor input after the driver's deadband: a drive below it leaves the bridge off.
    func afterDeadband(_ input: MotorInput) -> MotorInput {
        guard case .duty(let d) = input, abs(d) < parameters.motorDeadband else { return input }
        return .coast
    }

    func derivative(_ s: State, _ left: MotorInput, _ right: MotorInput) -> State {
        let a = accelerations(s, left: left, right: right)
        return State(x: s.v, v: a.xdd, phi: s.omega, omega: a.phidd, psi: s.psiRate, psiRate: a.psidd,
                     gapLeft: a.gapLeft, gapRight: a.gapRight)
    }

    /// The fastest decay rate of the motors' damping, 1/s: a motor's back-EMF (n² k²/R at
    /// the wheel) and viscous friction damp the wheels' speed relative to the body through the
    /// pendulum's mass matrix (forward and lean), and the turn through the yaw inertia. A large
    /// gear ratio makes it stiff: a 1000:1 gearbox on the default motor gives about 40 000 /s,
    /// the default 30:1 about 40 /s. (Static friction's sticking band is kept within the
    /// 1 ms step by its own width, ``stickSpeed``.)
    public var stiffness: Double { Self.stiffness(parameters) }

    /// How fast the motors' back-EMF damps the robot's forward roll against its lean, upright,
    /// 1/s: the pole b that a drive → pitch model K e^(−θs)/(s(s + b)) has (`poise tune`'s
    /// model of the robot). The stiffness's forward mode at zero tilt.
    public static func forwardDampingRate(_ robot: SimulatedBalancingRobot) -> Double {
        let p = Parameters(robot)
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        let damping = p.gearRatio * p.gearRatio * p.motorConstant * p.motorConstant / p.motorResistance + p.wheelFriction
        let a11 = M + 2 * p.wheelMass + 2 * p.wheelInertia / (r * r)
        let a22 = M * L * L + p.bodyInertia
        let a12 = M * L
        return 2 * damping * (a22 / (r * r) + 2 * a12 / r + a11) / (a11 * a22 - a12 * a12)
    }

    static func stiffness(_ p: Parameters) -> Double {
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        let damping = p.gearRatio * p.gearRatio * p.motorConstant * p.motorConstant / p.motorResistance + p.wheelFriction
        let a11 = M + 2 * p.wheelMass + 2 * p.wheelInertia / (r * r)
        let a22 = M * L * L + p.bodyInertia
        // Both wheels' torque −c u, u = ẋ/r − φ̇ (b = [1/r, −1]): the rank-one mode decays
        // at 2c bᵀM⁻¹b; M's coupling a12 = M L cosφ, so the larger over the tilts it reaches.
        var forward = 0.0
        for c in [1, _cosD(p.floorTilt)] {
            let a12 = M * L * c
            let det = a11 * a22 - a12 * a12
            forward = max(forward, 2 * damping * (a22 / (r * r) + 2 * a12 / r + a11) / det)
        }
        let yawInertia = p.bodyYawInertia + 2 * (p.wheelMass + p.wheelInertia / (r * r)) * (p.trackWidth / 2) * (p.trackWidth / 2)
        let turn = damping * p.trackWidth * p.trackWidth / (2 * r * r * yawInertia)
        return max(forward, turn)
    }

    /// Explicit RK4 stays stable for a decay rate λ while h λ < 2.79; steps keep h λ ≤ 2.
    public static let stableStepTimesRate = 2.0
    /// The finest step the plant takes, s: a plant stiffer than this can follow is reported
    /// diverged (too stiff) rather than integrated wrongly or forever.
    public static let finestStep = 1e-6

    /// The step ``advance(to:left:right:)`` takes: ``Parameters/maximumStep``, finer where the
    /// equations are stiff (nil: finer than ``finestStep`` would be needed).
    public var integrationStep: Double? { step }

    static func integrationStep(_ p: Parameters) -> Double? {
        let lambda = stiffness(p)
        guard lambda.isFinite else { return nil }
        let step = lambda > 0 ? min(p.maximumStep, stableStepTimesRate / lambda) : p.maximumStep
        return step >= finestStep ? step : nil
    }

    /// Advances to `newTime` (s) with the motors held at these inputs.
    public mutating func advance(to newTime: Double, left: MotorInput, right: MotorInput) {
        guard newTime > time else { return }
        guard divergence == nil else { time = newTime; return }
        let left = afterDeadband(left), right = afterDeadband(right)
        guard let step = integrationStep else {
            let needed = Self.stableStepTimesRate / stiffness
            diverge(at: time, "too stiff to integrate: the wheels' damping (gear ratio² × motor constant² ÷ resistance) decays at "
                + "\(PlantDivergence.rate(stiffness)) /s, which needs steps of \(needed.isFinite ? "\((needed * 1e9).rounded() / 1000) µs" : "0 s"), "
                + "finer than \(Int(Self.finestStep * 1e6)) µs")
            time = newTime
            return
        }
        let steps = max(1, Int(((newTime - time) / step).rounded(.up)))
        let h = (newTime - time) / Double(steps)
        var s = State(x: position, v: speed, phi: lean, omega: leanRate, psi: heading, psiRate: headingRate,
                      gapLeft: gapLeft, gapRight: gapRight)
        let half = parameters.backlash / 2
        for index in 0..<steps {
            let k1 = derivative(s, left, right)
            let k2 = derivative(s.adding(k1, h / 2), left, right)
            let k3 = derivative(s.adding(k2, h / 2), left, right)
            let k4 = derivative(s.adding(k3, h), left, right)
            var next = State(x: s.x + h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
                             v: s.v + h / 6 * (k1.v + 2 * k2.v + 2 * k3.v + k4.v),
                             phi: s.phi + h / 6 * (k1.phi + 2 * k2.phi + 2 * k3.phi + k4.phi),
                             omega: s.omega + h / 6 * (k1.omega + 2 * k2.omega + 2 * k3.omega + k4.omega),
                             psi: s.psi + h / 6 * (k1.psi + 2 * k2.psi + 2 * k3.psi + k4.psi),
                             psiRate: s.psiRate + h / 6 * (k1.psiRate + 2 * k2.psiRate + 2 * k3.psiRate + k4.psiRate))
            if half > 0 {
                // The play is bounded: at its ends the gears mesh.
                next.gapLeft = max(-half, min(half, s.gapLeft + h / 6 * (k1.gapLeft + 2 * k2.gapLeft + 2 * k3.gapLeft + k4.gapLeft)))
                next.gapRight = max(-half, min(half, s.gapRight + h / 6 * (k1.gapRight + 2 * k2.gapRight + 2 * k3.gapRight + k4.gapRight)))
            }
            if let cause = PlantDivergence.nonFinite(["axle position": next.x, "axle speed": next.v, "lean": next.phi,
                                                      "lean rate": next.omega, "heading": next.psi, "heading rate": next.psiRate,
                                                      "left gear play": next.gapLeft, "right gear play": next.gapRight]) {
                diverge(at: time + Double(index + 1) * h, cause)
                time = newTime
                return
            }
            s = next
            // The floor: an inelastic stop.
            if abs(s.phi) >= parameters.floorTilt {
                s.phi = s.phi > 0 ? parameters.floorTilt : -parameters.floorTilt
                if s.omega * s.phi > 0 { s.omega = 0 }
                fallen = true
            } else {
                fallen = false
            }
        }
        let final = accelerations(s, left: left, right: right)
        if let cause = PlantDivergence.nonFinite(["axle acceleration": final.xdd, "lean acceleration": final.phidd,
                                                  "heading acceleration": final.psidd, "battery voltage": final.supply]) {
            position = s.x; lean = s.phi; heading = s.psi
            diverge(at: newTime, cause)
            time = newTime
            return
        }
        acceleration = final.xdd
        leanAcceleration = fallen ? 0 : final.phidd
        headingAcceleration = final.psidd
        batteryTerminalVoltage = final.supply
        batteryCurrent = final.current
        position = s.x; speed = s.v; lean = s.phi; leanRate = s.omega; heading = s.psi; headingRate = s.psiRate
        gapLeft = s.gapLeft; gapRight = s.gapRight
        time = newTime
    }

    /// Ends the integration: the state stays at the last finite step's, at rest.
    mutating func diverge(at t: Double, _ cause: String) {
        divergence = PlantDivergence(time: t, cause: cause)
        speed = 0; leanRate = 0; headingRate = 0; acceleration = 0; leanAcceleration = 0; headingAcceleration = 0
    }

    /// Holds the body still at its present pose (a hand holding the robot), time moving on.
    public mutating func hold(until newTime: Double) {
        speed = 0; leanRate = 0; headingRate = 0; acceleration = 0; leanAcceleration = 0; headingAcceleration = 0
        time = max(time, newTime)
    }

    /// Body-to-ENU attitude: heading about z, then pitch about body x.
    public var attitude: Quaternion {
        Quaternion(axis: SIMD3(0, 0, 1), angle: Float(heading)) * Quaternion(axis: SIMD3(1, 0, 0), angle: Float(-lean))
    }

    /// Kinetic plus potential energy, J (the floor and friction aside, conserved when coasting).
    public var mechanicalEnergy: Double {
        let p = parameters
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        let a11 = M + 2 * p.wheelMass + 2 * p.wheelInertia / (r * r)
        let kinetic = 0.5 * a11 * speed * speed + M * L * _cosD(lean) * speed * leanRate
            + 0.5 * (M * L * L + p.bodyInertia) * leanRate * leanRate
        let turn = 0.5 * (p.bodyYawInertia + 2 * (p.wheelMass + p.wheelInertia / (r * r)) * (p.trackWidth / 2) * (p.trackWidth / 2)) * headingRate * headingRate
        return kinetic + turn + M * Double(Gravity.standard) * L * _cosD(lean)
    }

    /// What an ideal IMU `sensorHeight` up the body measures now (body frame, SI).
    public var motion: HeldMotion {
        let h = parameters.sensorHeight
        let s = _sinD(lean), c = _cosD(lean)
        // Sensor acceleration in the (forward, up) plane: axle + tangential + centripetal.
        let forward = acceleration + h * (c * leanAcceleration - s * leanRate * leanRate)
        let up = h * (-s * leanAcceleration - c * leanRate * leanRate)
        let heading = self.heading
        let forwardAxis = SIMD3(-_sinD(heading), _cosD(heading), 0)
        let world = forwardAxis * forward + SIMD3(0, 0, up + Double(Gravity.standard))
        let q = attitude
        let pitch = -lean, pitchRate = -leanRate
        let rate = SIMD3(pitchRate, headingRate * _sinD(pitch), headingRate * _cosD(pitch))
        var force = q.inverseRotate(SIMD3<Float>(world))
        let r = parameters.imuOffset
        if r != .zero {
            // A point r off the nominal one on the rigid body: + ω̇ × r + ω × (ω × r), with the
            // body-frame ω̇ of the true motion.
            let pitchAcceleration = -leanAcceleration
            let spin = SIMD3(pitchAcceleration,
                             headingAcceleration * _sinD(pitch) + headingRate * _cosD(pitch) * pitchRate,
                             headingAcceleration * _cosD(pitch) - headingRate * _sinD(pitch) * pitchRate)
            force += SIMD3<Float>(crossD(spin, r) + crossD(rate, crossD(rate, r)))
        }
        return HeldMotion(specificForce: force, angularRate: SIMD3<Float>(rate),
                          magneticField: q.inverseRotate(SIMD3<Float>(magneticField)))
    }
}

extension BalancingRobotPlant.State {
    func adding(_ d: Self, _ h: Double) -> Self {
        Self(x: x + h * d.x, v: v + h * d.v, phi: phi + h * d.phi, omega: omega + h * d.omega,
             psi: psi + h * d.psi, psiRate: psiRate + h * d.psiRate,
             gapLeft: gapLeft + h * d.gapLeft, gapRight: gapRight + h * d.gapRight)
    }
}

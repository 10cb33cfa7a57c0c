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
    }

    public var parameters: Parameters
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
    /// Axle (forward) and lean accelerations of the last step, for the accelerometer.
    var acceleration = 0.0, leanAcceleration = 0.0
    /// The world (ENU) magnetic field, µT.
    public var magneticField: SIMD3<Double>

    /// - Parameter pitch: initial pitch, rad (positive leans back).
    public init(parameters: Parameters = Parameters(), pitch: Double = 0, heading: Double = 0,
                magneticField: SIMD3<Float> = typicalGeomagneticField) {
        self.parameters = parameters
        lean = -pitch
        self.heading = heading
        self.magneticField = SIMD3<Double>(magneticField)
    }

    /// Core Motion pitch, rad (positive leaning back).
    public var pitch: Double { -lean }
    public var pitchRate: Double { -leanRate }

    struct State {
        var x, v, phi, omega, psi, psiRate: Double
    }

    /// The body's accelerations for a state and motor inputs: (ẍ, φ̈, ψ̈).
    func accelerations(_ s: State, left: MotorInput, right: MotorInput) -> (Double, Double, Double) {
        let p = parameters
        let r = p.wheelRadius, L = p.centreOfMassHeight, M = p.bodyMass
        // Wheel speeds relative to the body (the motors sit in the body), rad/s.
        let turn = s.psiRate * p.trackWidth / 2
        let wheelLeft = (s.v - turn) / r - s.omega
        let wheelRight = (s.v + turn) / r - s.omega
        let tauLeft = wheelTorque(left, relativeSpeed: wheelLeft)
        let tauRight = wheelTorque(right, relativeSpeed: wheelRight)
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
        return (xdd, phidd, psidd)
    }

    /// Torque on one wheel from its motor (through the gearbox) and friction, N·m.
    func wheelTorque(_ input: MotorInput, relativeSpeed: Double) -> Double {
        let p = parameters
        let motorSpeed = relativeSpeed * p.gearRatio
        let friction = -p.wheelFriction * relativeSpeed
        switch input {
        case .coast:
            return friction
        case .brake:
            return friction + p.gearRatio * p.motorConstant * (-p.motorConstant * motorSpeed) / p.motorResistance
        case .voltage(let v):
            let current = (v - p.motorConstant * motorSpeed) / p.motorResistance
            return friction + p.gearRatio * p.motorConstant * current
        }
    }

    func derivative(_ s: State, _ left: MotorInput, _ right: MotorInput) -> State {
        let (xdd, phidd, psidd) = accelerations(s, left: left, right: right)
        return State(x: s.v, v: xdd, phi: s.omega, omega: phidd, psi: s.psiRate, psiRate: psidd)
    }

    /// Advances to `newTime` (s) with the motors held at these inputs.
    public mutating func advance(to newTime: Double, left: MotorInput, right: MotorInput) {
        guard newTime > time else { return }
        let steps = max(1, Int(((newTime - time) / parameters.maximumStep).rounded(.up)))
        let h = (newTime - time) / Double(steps)
        var s = State(x: position, v: speed, phi: lean, omega: leanRate, psi: heading, psiRate: headingRate)
        for _ in 0..<steps {
            let k1 = derivative(s, left, right)
            let k2 = derivative(s.adding(k1, h / 2), left, right)
            let k3 = derivative(s.adding(k2, h / 2), left, right)
            let k4 = derivative(s.adding(k3, h), left, right)
            s = State(x: s.x + h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
                      v: s.v + h / 6 * (k1.v + 2 * k2.v + 2 * k3.v + k4.v),
                      phi: s.phi + h / 6 * (k1.phi + 2 * k2.phi + 2 * k3.phi + k4.phi),
                      omega: s.omega + h / 6 * (k1.omega + 2 * k2.omega + 2 * k3.omega + k4.omega),
                      psi: s.psi + h / 6 * (k1.psi + 2 * k2.psi + 2 * k3.psi + k4.psi),
                      psiRate: s.psiRate + h / 6 * (k1.psiRate + 2 * k2.psiRate + 2 * k3.psiRate + k4.psiRate))
            // The floor: an inelastic stop.
            if abs(s.phi) >= parameters.floorTilt {
                s.phi = s.phi > 0 ? parameters.floorTilt : -parameters.floorTilt
                if s.omega * s.phi > 0 { s.omega = 0 }
                fallen = true
            } else {
                fallen = false
            }
        }
        let final = derivative(s, left, right)
        acceleration = final.v
        leanAcceleration = fallen ? 0 : final.omega
        position = s.x; speed = s.v; lean = s.phi; leanRate = s.omega; heading = s.psi; headingRate = s.psiRate
        time = newTime
    }

    /// Holds the body still at its present pose (a hand holding the robot), time moving on.
    public mutating func hold(until newTime: Double) {
        speed = 0; leanRate = 0; headingRate = 0; acceleration = 0; leanAcceleration = 0
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
        return HeldMotion(specificForce: q.inverseRotate(SIMD3<Float>(world)), angularRate: SIMD3<Float>(rate),
                          magneticField: q.inverseRotate(SIMD3<Float>(magneticField)))
    }
}

extension BalancingRobotPlant.State {
    func adding(_ d: Self, _ h: Double) -> Self {
        Self(x: x + h * d.x, v: v + h * d.v, phi: phi + h * d.phi, omega: omega + h * d.omega,
             psi: psi + h * d.psi, psiRate: psiRate + h * d.psiRate)
    }
}

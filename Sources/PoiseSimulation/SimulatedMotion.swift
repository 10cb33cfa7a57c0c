import PoiseMath

/// What a simulated IMU experiences at a time: the true inputs before any sensor error.
///
/// All vectors are in the body frame: specific force in m/s² (+g up when at rest), angular
/// rate in rad/s, magnetic field in µT. Adapters for scripted motions and recorded traces
/// conform to this too.
public protocol SimulatedMotion {
    func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>)
}

/// A typical mid-latitude geomagnetic field in ENU, µT: 20 µT north, 44 µT down.
public let typicalGeomagneticField = SIMD3<Float>(0, 20, -44)

/// The board held still at `attitude` (body-to-world, ENU).
public struct StaticPose: SimulatedMotion, Sendable {
    public var attitude: Quaternion
    public var gravity: Float
    /// The world (ENU) magnetic field, µT.
    public var magneticField: SIMD3<Float>

    public init(attitude: Quaternion = .identity, gravity: Float = Gravity.standard,
                magneticField: SIMD3<Float> = typicalGeomagneticField) {
        self.attitude = attitude
        self.gravity = gravity
        self.magneticField = magneticField
    }

    public func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
        (attitude.inverseRotate(SIMD3(0, 0, gravity)), .zero, attitude.inverseRotate(magneticField))
    }
}

/// The board turning at a constant `rate` (rad/s) about a fixed body `axis`, starting at
/// `initialAttitude`. No linear acceleration: the accelerometer sees gravity only.
public struct ConstantRotation: SimulatedMotion, Sendable {
    public var axis: SIMD3<Float>
    public var rate: Float
    public var initialAttitude: Quaternion
    public var gravity: Float
    public var magneticField: SIMD3<Float>

    public init(axis: SIMD3<Float>, rate: Float, initialAttitude: Quaternion = .identity,
                gravity: Float = Gravity.standard, magneticField: SIMD3<Float> = typicalGeomagneticField) {
        let length = (axis * axis).sum().squareRoot()
        self.axis = length > 0 ? axis / length : SIMD3(0, 0, 1)
        self.rate = rate
        self.initialAttitude = initialAttitude
        self.gravity = gravity
        self.magneticField = magneticField
    }

    /// Body-to-world attitude at `time`.
    public func attitude(at time: Double) -> Quaternion {
        // Wrap the angle in Double so long runs keep full Float precision.
        let angle = (Double(rate) * time).truncatingRemainder(dividingBy: 4 * Double.pi)
        return initialAttitude * Quaternion(axis: axis, angle: Float(angle))
    }

    public func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
        let q = attitude(at: time)
        return (q.inverseRotate(SIMD3(0, 0, gravity)), axis * rate, q.inverseRotate(magneticField))
    }
}

/// A named quantity the control stage publishes each tick for output channels to follow.
///
/// An output channel's `source` in the config is one of these names. Controllers write the
/// signals they produce into a ``SignalFrame``; channels map a signal's value to a pulse
/// width, a duty cycle or a logic level. Ranges are the signal's own, before any mapping.
public enum OutputSignal: String, CaseIterable, Sendable, Hashable {
    /// Quadrotor motor throttles, 0…1 (numbered as in ArduPilot's frame diagrams).
    case motor1, motor2, motor3, motor4, motor5, motor6, motor7, motor8
    /// Balancing-robot wheel drive, signed, −1…1 (positive drives the robot forward).
    case leftWheel = "left_wheel", rightWheel = "right_wheel"
    /// Wheel drive magnitude, 0…1: the PWM input of an H-bridge (TB6612FNG PWMA, L298N ENA).
    case leftWheelDuty = "left_wheel_duty", rightWheelDuty = "right_wheel_duty"
    /// H-bridge direction inputs, 0 or 1 (IN1/IN2): forward is 1 when the drive is positive,
    /// reverse when it is negative; both 0 at zero drive (coast).
    case leftWheelForward = "left_wheel_forward", leftWheelReverse = "left_wheel_reverse"
    case rightWheelForward = "right_wheel_forward", rightWheelReverse = "right_wheel_reverse"
    /// Attitude, rad, Core Motion Euler angles (for a gimbal servo or an indicator).
    case pitch, roll, yaw
    /// 1 while armed (an H-bridge STBY pin, an "armed" LED), else 0.
    case armed
    /// 1 while a fault holds the outputs safe.
    case fault
    /// 1 while the device lies face down (the robot has fallen over).
    case faceDown
    /// 1 while the sensor is at rest.
    case atRest

    /// Dense index into a ``SignalFrame``.
    @inlinable
    public var index: Int {
        switch self {
        case .motor1: 0
        case .motor2: 1
        case .motor3: 2
        case .motor4: 3
        case .motor5: 4
        case .motor6: 5
        case .motor7: 6
        case .motor8: 7
        case .leftWheel: 8
        case .rightWheel: 9
        case .leftWheelDuty: 10
        case .rightWheelDuty: 11
        case .leftWheelForward: 12
        case .leftWheelReverse: 13
        case .rightWheelForward: 14
        case .rightWheelReverse: 15
        case .pitch: 16
        case .roll: 17
        case .yaw: 18
        case .armed: 19
        case .fault: 20
        case .faceDown: 21
        case .atRest: 22
        }
    }
}

/// The value of every ``OutputSignal`` for one tick: fixed size, no allocation.
@frozen
public struct SignalFrame: Sendable {
    public static let capacity = 23
    public var values: InlineArray<23, Float>

    @inlinable
    public init() { values = InlineArray(repeating: 0) }

    @inlinable
    public subscript(_ signal: OutputSignal) -> Float {
        get { values[signal.index] }
        set { values[signal.index] = newValue }
    }
}

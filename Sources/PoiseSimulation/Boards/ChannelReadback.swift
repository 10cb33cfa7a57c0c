import PoiseControl
import PoiseOutputs

/// What the simulated world's actuators see on every output channel this tick, read from
/// the simulated hardware (GPIO pin levels, sysfs PWM and PCA9685 pulses) after the drivers
/// did their part — so a plant sees what a motor driver, an ESC or a servo would.
public struct ChannelReadback: Sendable {
    /// GPIO: the pin is high. Pulses: the output is high at all.
    public var high: InlineArray<16, Bool>
    /// High time over period, 0…1 (GPIO: 0 or 1).
    public var duty: InlineArray<16, Double>
    /// High time per period, µs (the pulse an ESC or servo reads; GPIO: 0).
    public var pulseMicroseconds: InlineArray<16, Double>

    public init() {
        high = InlineArray(repeating: false)
        duty = InlineArray(repeating: 0)
        pulseMicroseconds = InlineArray(repeating: 0)
    }
}

/// Which output channel carries each actuator signal a plant needs, found once from the
/// configured channels' sources (-1: none).
public struct ActuatorWiring: Sendable {
    public var leftDuty = -1, rightDuty = -1
    public var leftForward = -1, leftReverse = -1, rightForward = -1, rightReverse = -1
    /// A signed wheel drive on one pulse channel (an RC-style bidirectional ESC).
    public var leftSigned = -1, rightSigned = -1
    /// An H-bridge standby/enable line driven by `armed`.
    public var standby = -1
    public var motors: InlineArray<4, Int> = InlineArray(repeating: -1)
    /// The mapping of each channel (for signed pulse channels' neutral point).
    public var mappings: [ChannelMapping] = []

    public init(_ channels: [OutputChannelSpec]) {
        mappings = channels.map(\.mapping)
        for (index, spec) in channels.enumerated() {
            switch spec.mapping.signal {
            case .leftWheelDuty: leftDuty = index
            case .rightWheelDuty: rightDuty = index
            case .leftWheelForward: leftForward = index
            case .leftWheelReverse: leftReverse = index
            case .rightWheelForward: rightForward = index
            case .rightWheelReverse: rightReverse = index
            case .leftWheel: leftSigned = index
            case .rightWheel: rightSigned = index
            case .armed: standby = index
            case .motor1: motors[0] = index
            case .motor2: motors[1] = index
            case .motor3: motors[2] = index
            case .motor4: motors[3] = index
            default: break
            }
        }
    }
}

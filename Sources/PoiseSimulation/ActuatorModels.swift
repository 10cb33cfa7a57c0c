import PoiseDeviceSettings

// What a motor driver or an ESC does with the signals on its pins: the plants' inputs.
// Plain functions of the electrical signals, so plants stay free of output-driver details.

/// A TB6612FNG / L298N-style H-bridge channel: two direction inputs, a PWM enable and a
/// standby (or enable) line, from a supply voltage.
public struct HBridgeModel: Sendable, Equatable {
    /// Motor supply, V.
    public var supplyVoltage: Double

    public init(supplyVoltage: Double = SimulatedBalancingRobot().batteryVoltage) { self.supplyVoltage = supplyVoltage }

    /// What the motor terminals see.
    public enum Output: Sendable, Equatable {
        /// A voltage across the motor, V (positive: forward).
        case drive(Double)
        /// Both outputs low (IN1 = IN2 = 1 on a TB6612FNG, or both low with PWM high on an
        /// L298N): the motor is short-circuited through the bridge and brakes.
        case brake
        /// Outputs off (standby, or PWM low with the inputs set for coast): no current flows.
        case coast
    }

    /// - Parameters: `in1`/`in2` direction levels, `duty` the PWM input's duty cycle 0…1,
    ///   `standby` true while the STBY/enable line holds the bridge off.
    public func output(in1: Bool, in2: Bool, duty: Double, standby: Bool) -> Output {
        if standby { return .coast }
        let d = max(0, min(1, duty))
        switch (in1, in2) {
        case (true, false): return d > 0 ? .drive(supplyVoltage * d) : .brake
        case (false, true): return d > 0 ? .drive(-supplyVoltage * d) : .brake
        case (true, true): return .brake
        case (false, false): return .coast
        }
    }
}

/// A hobby ESC reading a servo-style pulse: 1000 µs stopped, 2000 µs full throttle.
public struct ESCModel: Sendable, Equatable {
    public var minimumMicroseconds: Double
    public var maximumMicroseconds: Double
    /// Pulses shorter than this leave the motor stopped (the ESC's arming/deadband point).
    public var startMicroseconds: Double

    public init(minimumMicroseconds: Double = 1000, maximumMicroseconds: Double = 2000, startMicroseconds: Double = 1050) {
        self.minimumMicroseconds = minimumMicroseconds
        self.maximumMicroseconds = maximumMicroseconds
        self.startMicroseconds = startMicroseconds
    }

    /// Throttle 0…1 for a pulse of `microseconds` high time (0: no pulse, motor stopped).
    public func throttle(pulseMicroseconds microseconds: Double) -> Double {
        guard microseconds.isFinite, microseconds >= startMicroseconds else { return 0 }
        return max(0, min(1, (microseconds - minimumMicroseconds) / (maximumMicroseconds - minimumMicroseconds)))
    }
}

/// A bidirectional (car-style) ESC or a servo-pulse motor driver: 1500 µs neutral, ±500 µs
/// full forward/reverse, a small deadband around neutral.
public struct ReversibleESCModel: Sendable, Equatable {
    public var neutralMicroseconds: Double = 1500
    public var spanMicroseconds: Double = 500
    public var deadbandMicroseconds: Double = 10

    public init() {}

    /// Drive −1…1 (0 without a pulse).
    public func drive(pulseMicroseconds microseconds: Double) -> Double {
        guard microseconds > 0, microseconds.isFinite else { return 0 }
        let offset = microseconds - neutralMicroseconds
        guard abs(offset) > deadbandMicroseconds else { return 0 }
        return max(-1, min(1, offset / spanMicroseconds))
    }
}

import PoiseControl
import PoiseHAL

/// One configured output channel: the hardware it drives and how a signal maps onto it.
public struct OutputChannelSpec: Sendable, Equatable {
    public enum Hardware: Sendable, Equatable {
        /// A GPIO line; its request's `initialValue` is replaced by the mapping's safe value.
        case gpio(GPIOLineRequest)
        /// A sysfs PWM channel, `pwmchip<chip>/pwm<channel>`.
        case pwm(chip: Int, channel: Int, periodNanoseconds: UInt64, polarity: PWMPolarity)
        /// A PCA9685 channel, 0…15.
        case pca9685(channel: Int)
    }

    /// For messages: `output left_pwm (outputs.channels[0])`.
    public var name: String
    public var hardware: Hardware
    public var mapping: ChannelMapping

    public init(name: String, hardware: Hardware, mapping: ChannelMapping) {
        self.name = name
        self.hardware = hardware
        self.mapping = mapping
    }

    /// Where the channel is, for messages: `gpiochip0 line 17`, `pwmchip0/pwm1`, `PCA9685 channel 3`.
    public var place: String {
        switch hardware {
        case .gpio(let request): "\(request.chip) line \(request.line)"
        case .pwm(let chip, let channel, _, _): "pwmchip\(chip)/pwm\(channel)"
        case .pca9685(let channel): "PCA9685 channel \(channel)"
        }
    }
}

/// Everything an ``OutputBank`` opens at start-up.
public struct OutputBankSettings: Sendable, Equatable {
    public var channels: [OutputChannelSpec]
    /// The PCA9685, when any channel is on one.
    public var pca9685: PCA9685.Settings
    /// `/sys/class/pwm`, or a directory tree in tests.
    public var pwmSysfsRoot: String

    public init(channels: [OutputChannelSpec], pca9685: PCA9685.Settings = PCA9685.Settings(),
                pwmSysfsRoot: String = "/sys/class/pwm") {
        self.channels = channels
        self.pca9685 = pca9685
        self.pwmSysfsRoot = pwmSysfsRoot
    }

    /// Whether any channel is on the PCA9685 (the bank then needs the I²C bus).
    public var usesPCA9685: Bool {
        channels.contains { if case .pca9685 = $0.hardware { true } else { false } }
    }
}


/// A bus for banks without PCA9685 channels: every transfer fails with `ENODEV`.
@frozen
public struct NoI2CBus: I2CBus {
    public var path: String { "none" }
    public var functionality: I2CFunctionality { [] }
    @inlinable public init() {}
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        throw I2CError(I2CError.Operation(writing: write, reading: read.count), address: address,
                       bus: I2CBusName(constant: "none"), errno: .operationNotSupportedByDevice)
    }
}

// PCA9685 register map (NXP PCA9685 product data sheet rev. 4). Addresses as data; the bit
// fields the driver and the simulated chip share are option sets with their bit position.

/// PCA9685 register addresses.
public enum PCA9685Register: UInt8, Sendable, CaseIterable {
    case mode1 = 0x00          // MODE1: RESTART [7], EXTCLK [6], AI [5], SLEEP [4], ALLCALL [0]
    case mode2 = 0x01          // MODE2: INVRT [4], OCH [3], OUTDRV [2], OUTNE [1:0]
    case led0OnLow = 0x06      // LED0_ON_L; channel n's four registers start at 0x06 + 4·n
    case allLEDOnLow = 0xFA    // ALL_LED_ON_L: writes load every channel's ON registers
    case allLEDOnHigh = 0xFB   // ALL_LED_ON_H
    case allLEDOffLow = 0xFC   // ALL_LED_OFF_L
    case allLEDOffHigh = 0xFD  // ALL_LED_OFF_H: bit 4 = every channel fully off
    case preScale = 0xFE       // PRE_SCALE: writable only while MODE1.SLEEP is set
}

/// MODE1 (0x00).
public struct PCA9685Mode1: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 7 RESTART: reads 1 when PWM was running before SLEEP; writing 1 resumes it.
    public static let restart = PCA9685Mode1(rawValue: 1 << 7)
    /// Bit 6 EXTCLK: use the EXTCLK pin instead of the 25 MHz oscillator.
    public static let externalClock = PCA9685Mode1(rawValue: 1 << 6)
    /// Bit 5 AI: the register address advances after each byte (block writes).
    public static let autoIncrement = PCA9685Mode1(rawValue: 1 << 5)
    /// Bit 4 SLEEP: oscillator off, outputs off; PRE_SCALE can only be written now.
    public static let sleep = PCA9685Mode1(rawValue: 1 << 4)
    /// Bit 0 ALLCALL: answer the all-call address 0x70.
    public static let allCall = PCA9685Mode1(rawValue: 1 << 0)
    /// Power-on value: asleep, answering all-call.
    public static let powerOn: PCA9685Mode1 = [.sleep, .allCall]
}

/// MODE2 (0x01).
public struct PCA9685Mode2: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 4 INVRT: invert the outputs (for an external inverting driver).
    public static let invert = PCA9685Mode2(rawValue: 1 << 4)
    /// Bit 3 OCH: outputs change on ACK instead of STOP.
    public static let changeOnAck = PCA9685Mode2(rawValue: 1 << 3)
    /// Bit 2 OUTDRV: totem-pole outputs (servo and ESC signal inputs need them).
    public static let totemPole = PCA9685Mode2(rawValue: 1 << 2)
    /// Power-on value: totem pole, change on STOP.
    public static let powerOn: PCA9685Mode2 = [.totemPole]
}

/// Timing constants of the PCA9685.
public enum PCA9685Timing {
    /// Counts per PWM period (12-bit).
    public static let countsPerPeriod = 4096
    /// The bit in LEDn_ON_H / LEDn_OFF_H (and ALL_LED_*_H) that forces the output fully on / off.
    public static let fullBit: UInt8 = 1 << 4
    /// Internal oscillator, Hz.
    public static let internalOscillatorHz = 25_000_000.0
    /// PRE_SCALE limits: 3 (1526 Hz) … 255 (24 Hz) with the internal oscillator.
    public static let preScaleRange: ClosedRange<Int> = 3...255
    /// The oscillator needs this long after leaving SLEEP before RESTART, µs.
    public static let wakeMicroseconds = 500
    /// Channels.
    public static let channels = 16

    /// The first register of channel `n` (LEDn_ON_L).
    @inlinable
    public static func register(channel: Int) -> UInt8 {
        PCA9685Register.led0OnLow.rawValue + UInt8(4 * channel)
    }
}

import PoiseHAL
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

/// A PCA9685 16-channel PWM controller on an I²C bus shared with the sensor.
///
/// Plain data: every method takes the bus as `inout some I2CBus`, so the chip shares the bus
/// value the MPU-9250 driver owns (`imu.bus`) without aliasing it. Pulses start at count 0 of
/// each period; a channel's high time is `counts × period / 4096`.
public struct PCA9685: Sendable, Equatable {
    /// Where the chip is and how fast it runs.
    public struct Settings: Sendable, Equatable {
        /// 7-bit address; 0x40 with no address jumpers.
        public var address: UInt8
        /// PWM frequency, Hz: 50 for servos, up to 400 for ESCs (24…1526).
        public var frequencyHz: Double
        /// Oscillator frequency, Hz (25 MHz nominal; real chips are a few % off, so measure).
        public var oscillatorHz: Double

        public init(address: UInt8 = 0x40, frequencyHz: Double = 50,
                    oscillatorHz: Double = PCA9685Timing.internalOscillatorHz) {
            self.address = address
            self.frequencyHz = frequencyHz
            self.oscillatorHz = oscillatorHz
        }
    }

    public let settings: Settings
    /// PRE_SCALE: round(oscillator / (4096 × frequency)) − 1, within 3…255.
    public let preScale: UInt8
    /// The period the prescaler actually gives, ns.
    public let periodNanoseconds: Double

    public init(settings: Settings) {
        self.settings = settings
        preScale = Self.preScale(frequencyHz: settings.frequencyHz, oscillatorHz: settings.oscillatorHz)
        periodNanoseconds = Double(Int(preScale) + 1) * Double(PCA9685Timing.countsPerPeriod)
            / settings.oscillatorHz * 1e9
    }

    /// PRE_SCALE for a frequency (data sheet §7.3.5), clamped to what the chip accepts.
    public static func preScale(frequencyHz: Double, oscillatorHz: Double = PCA9685Timing.internalOscillatorHz) -> UInt8 {
        let exact = (oscillatorHz / (Double(PCA9685Timing.countsPerPeriod) * frequencyHz)).rounded() - 1
        let range = PCA9685Timing.preScaleRange
        return UInt8(min(max(exact, Double(range.lowerBound)), Double(range.upperBound)))
    }

    /// Counts (0…4096) for a high time in ns; 4096 = fully on.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    @inlinable
    public func counts(highTimeNanoseconds: UInt32) -> UInt16 {
        // Round half up by truncation: `rounded()` is not allowed in checked code.
        let counts = Double(highTimeNanoseconds) * Double(PCA9685Timing.countsPerPeriod) / periodNanoseconds + 0.5
        return UInt16(min(counts, Double(PCA9685Timing.countsPerPeriod)))
    }

    /// The high time `counts` give, ns.
    public func highTimeNanoseconds(counts: UInt16) -> Double {
        Double(counts) * periodNanoseconds / Double(PCA9685Timing.countsPerPeriod)
    }

    /// Sleep → PRE_SCALE → wake → RESTART, with auto-increment and totem-pole outputs; every
    /// channel starts fully off. `wait` pauses the given µs (the oscillator's wake-up time).
    public func configure(bus: inout some I2CBus, wait: (Int) -> Void = { usleep(UInt32($0)) }) throws(I2CError) {
        let address = settings.address
        let mode1 = PCA9685Register.mode1.rawValue
        let awake: PCA9685Mode1 = [.autoIncrement, .allCall]
        try bus.write(address: address, register: mode1, value: awake.union(.sleep).rawValue)
        try bus.write(address: address, register: PCA9685Register.preScale.rawValue, value: preScale)
        try bus.write(address: address, register: PCA9685Register.mode2.rawValue, value: PCA9685Mode2.totemPole.rawValue)
        try allOff(bus: &bus)
        try bus.write(address: address, register: mode1, value: awake.rawValue)
        wait(PCA9685Timing.wakeMicroseconds)
        try bus.write(address: address, register: mode1, value: awake.union(.restart).rawValue)
    }

    /// ALL_LED_OFF: every channel fully off in one write (4 bytes from ALL_LED_ON_L).
    public func allOff(bus: inout some I2CBus) throws(I2CError) {
        try bus.write(address: settings.address, register: PCA9685Register.allLEDOnLow.rawValue, block: Self.allOffBlock)
    }

    /// Channels `first...last` of `counts` as one block from LEDn_ON_L, 4 bytes each
    /// (0 → the full-off bit, 4096 → the full-on bit).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    @inlinable
    public static func encode(counts: InlineArray<16, UInt16>, first: Int, last: Int) -> I2CBlock {
        var block = I2CBlock()
        for channel in first...last {
            let value = counts[channel]
            let fullOn = value >= 4096
            block.append(0)
            block.append(fullOn ? PCA9685Timing.fullBit : 0)
            block.append(fullOn ? 0 : UInt8(truncatingIfNeeded: value))
            block.append(fullOn ? 0 : value == 0 ? PCA9685Timing.fullBit : UInt8(truncatingIfNeeded: value >> 8) & 0x0F)
        }
        return block
    }

    /// Writes channels `first...last` from `counts` in one transaction (auto-increment).
    @inlinable
    public func write(counts: InlineArray<16, UInt16>, first: Int, last: Int, bus: inout some I2CBus) throws(I2CError) {
        try bus.write(address: settings.address, register: PCA9685Timing.register(channel: first),
                      block: Self.encode(counts: counts, first: first, last: last))
    }

    /// ALL_LED_OFF as a block for ``I2CBus/write(address:register:block:)`` at ALL_LED_ON_L.
    @inlinable
    public static var allOffBlock: I2CBlock {
        var block = I2CBlock()
        block.append(0)
        block.append(0)
        block.append(0)
        block.append(PCA9685Timing.fullBit)
        return block
    }
}

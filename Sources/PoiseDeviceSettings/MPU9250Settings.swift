// The MPU-9250 driver's settings, a plain value type below the configuration: the `sensor.*`
// keys are bound straight to these fields (PoiseConfig), so each default is written here only.

/// FIFO_R_W holds at most this many bytes per read: 32 frames of 14.
public let maximumFIFOFramesPerRead = 32

/// Everything the MPU-9250 driver is configured with. Times in seconds, rates in hertz.
public struct MPU9250Settings: Sendable, Equatable {
    /// Accelerometer full scale (ACCEL_FS_SEL, ACCEL_CONFIG bits 4:3).
    public enum AccelerometerRange: UInt8, Sendable, CaseIterable {
        case g2 = 0, g4 = 1, g8 = 2, g16 = 3
        /// Full scale in g.
        public var g: Float { Float(2 << Int(rawValue)) }
    }

    /// Gyroscope full scale (GYRO_FS_SEL, GYRO_CONFIG bits 4:3).
    public enum GyroscopeRange: UInt8, Sendable, CaseIterable {
        case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
        /// Full scale in °/s.
        public var degreesPerSecond: Float { Float(250 << Int(rawValue)) }
    }

    /// Gyroscope and temperature low-pass (DLPF_CFG, CONFIG bits 2:0, with FCHOICE_B = 0).
    public enum GyroscopeBandwidth: UInt8, Sendable, CaseIterable {
        case hz250 = 0, hz184 = 1, hz92 = 2, hz41 = 3, hz20 = 4, hz10 = 5, hz5 = 6
        /// −3 dB bandwidth in Hz.
        public var hertz: Double {
            switch self {
            case .hz250: 250
            case .hz184: 184
            case .hz92: 92
            case .hz41: 41
            case .hz20: 20
            case .hz10: 10
            case .hz5: 5
            }
        }
        /// The rate the sample-rate divider divides: 8 kHz without filtering delay, else 1 kHz.
        public var internalRate: Double { self == .hz250 ? 8000 : 1000 }
    }

    /// Accelerometer low-pass (A_DLPF_CFG, ACCEL_CONFIG2 bits 2:0, with ACCEL_FCHOICE_B = 0).
    public enum AccelerometerBandwidth: UInt8, Sendable, CaseIterable {
        case hz218 = 1, hz99 = 2, hz45 = 3, hz21 = 4, hz10 = 5, hz5 = 6, hz420 = 7
        /// −3 dB bandwidth in Hz.
        public var hertz: Double {
            switch self {
            case .hz218: 218.1
            case .hz99: 99
            case .hz45: 44.8
            case .hz21: 21.2
            case .hz10: 10.2
            case .hz5: 5.05
            case .hz420: 420
            }
        }
    }

    /// The MPU's 7-bit address: 0x68 with AD0 low, 0x69 with AD0 high.
    public var address: UInt8 = 0x68
    /// ±16 g: vibration on a vehicle clips ±8 g, and 0.5 mg per LSB is still far below the noise.
    public var accelerometerRange: AccelerometerRange = .g16
    public var gyroscopeRange: GyroscopeRange = .dps2000
    public var gyroscopeBandwidth: GyroscopeBandwidth = .hz92
    public var accelerometerBandwidth: AccelerometerBandwidth = .hz99
    /// SMPLRT_DIV: output rate = internal rate / (1 + divider).
    public var sampleRateDivider: UInt8 = 0
    /// Chip-to-body axis mapping.
    public var mounting: Mounting = .identity

    /// The AK8963 mode; `.powerDown` runs 6D without trying the magnetometer.
    public var magnetometerMode: AK8963Mode = .continuous100Hz
    /// The loop rate the driver's `tick()` is called at, in Hz (turns times into tick counts).
    public var tickRate: Double = 200
    /// Read the magnetometer on every N-th tick; 0 chooses tickRate / magnetometer rate.
    public var magnetometerInterval: Int = 0

    /// Use the FIFO (for sample rates above one read per tick).
    public var useFIFO = false
    /// At most this many 14-byte frames per FIFO read (1…32); older frames wait for the next tick.
    public var maxFramesPerRead = 32

    /// Extra attempts at a failed read within the same tick. One keeps the worst tick short:
    /// two 14-byte bursts take 3.1 ms at 100 kHz, within a 5 ms tick.
    public var retries = 1
    /// Consecutive failed ticks after which the sensor is declared lost (and re-initialised,
    /// which costs at least `resetDelay`): 50 ms at 200 Hz, the default sensor timeout, so a
    /// brief glitch is ridden out rather than turned into a reset.
    public var lostAfterFailures = 10
    /// Identical raw bursts in a row that mean the data is stuck (the chip's noise never repeats).
    public var stuckAfterIdenticalReads = 50
    /// Seconds between re-initialisation attempts while lost.
    public var reinitInterval: Double = 1.0
    /// Seconds to wait after H_RESET before configuring (datasheet: 100 ms).
    public var resetDelay: Double = 0.1
    /// Consecutive magnetometer reads without new data after which it is declared silent.
    public var magnetometerSilentAfterReads = 50

    public init() {}

    /// The defaults: ±16 g, ±2000 °/s, 92/99 Hz bandwidth, 1 kHz output, 200 Hz loop,
    /// magnetometer at 100 Hz.
    public static let `default` = MPU9250Settings()

    /// Output data rate in Hz.
    public var outputRate: Double { gyroscopeBandwidth.internalRate / (1 + Double(sampleRateDivider)) }

    /// `seconds` expressed in ticks, at least 1.
    public func ticks(_ seconds: Double) -> Int { max(1, countOf((seconds * tickRate).rounded(.up))) }

    /// Identical reads that mean stuck data, allowing for ticks faster than the output rate
    /// (which legitimately repeat a sample).
    public var effectiveStuckLimit: Int {
        let repeats = max(1, countOf((tickRate / outputRate).rounded(.up)))
        return stuckAfterIdenticalReads * repeats
    }

    /// Checks ranges; returns a list of problems, empty when the settings are usable.
    public var problems: [String] {
        var problems: [String] = []
        if !(tickRate > 0 && tickRate <= 10_000) { problems.append("tickRate \(tickRate) Hz must lie in (0, 10000]") }
        if !(1...maximumFIFOFramesPerRead).contains(maxFramesPerRead) {
            problems.append("maxFramesPerRead \(maxFramesPerRead) must lie in 1…\(maximumFIFOFramesPerRead)")
        }
        if retries < 0 { problems.append("retries \(retries) must not be negative") }
        if lostAfterFailures < 1 { problems.append("lostAfterFailures \(lostAfterFailures) must be at least 1") }
        if !(reinitInterval > 0) { problems.append("reinitInterval \(reinitInterval) s must be positive") }
        if !(resetDelay >= 0) { problems.append("resetDelay \(resetDelay) s must not be negative") }
        if address != 0x68 && address != 0x69 { problems.append("address \(hex(address)) is not an MPU-9250 address (0x68 or 0x69)") }
        return problems
    }

    /// The effective magnetometer interval in ticks.
    public var effectiveMagnetometerInterval: Int {
        if magnetometerInterval > 0 { return magnetometerInterval }
        guard magnetometerMode.rate > 0 else { return 1 }
        return max(1, countOf((tickRate / magnetometerMode.rate).rounded(.down)))
    }
}

/// A tick count from a Double that may be NaN, infinite or huge (bad settings never trap).
func countOf(_ value: Double) -> Int {
    guard value.isFinite else { return value > 0 ? 1_000_000_000 : 0 }
    return Int(max(-1e9, min(1e9, value)))
}

/// `0x` and two upper-case hexadecimal digits.
private func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

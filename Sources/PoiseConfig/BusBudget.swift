/// The I²C bus time one loop tick needs, in bit periods (docs/wiring.md, "Bus arithmetic").
///
/// Every byte on the wire is 9 bit periods (8 data + ACK); START, repeated START and STOP add
/// about one each. The MPU-9250 burst is address+W, register, repeated START, address+R and
/// 15 data bytes (INT_STATUS, then accel, temperature, gyro): 165 bit periods; the one
/// configuration register re-read each tick (the checked registers that find a chip reset)
/// is one more 1-byte read, 39. The AK8963 read through the bypass is 8 data bytes (ST1…ST2
/// span), 102 bit periods, at the magnetometer's rate.
public enum BusBudget {
    /// Bit periods of the 15-byte INT_STATUS + accelerometer/temperature/gyroscope burst.
    public static let burstBits = 165.0
    /// Bit periods of the one configuration register re-read each tick (a 1-byte read: the
    /// registers it checks are not next to the burst, so it cannot share its transaction).
    public static let checkedRegisterBits = 39.0
    /// Bit periods of one AK8963 read.
    public static let magnetometerBits = 102.0
    /// Fraction of the wire limit a loop may plan for: the rest goes to system-call and
    /// controller gaps between transactions.
    public static let usableFraction = 2.0 / 3.0

    /// The highest tick rate the wire itself carries: one burst and one checked register per
    /// tick plus the magnetometer reads (and `extraBitsPerTick`, e.g. PCA9685 writes).
    public static func wireLimitHz(clockHz: Double, magnetometerRateHz: Double, extraBitsPerTick: Double = 0) -> Double {
        (clockHz - magnetometerRateHz * magnetometerBits) / (burstBits + checkedRegisterBits + extraBitsPerTick)
    }

    /// The highest rate `poise check` accepts: two thirds of the wire limit.
    public static func usableLimitHz(clockHz: Double, magnetometerRateHz: Double, extraBitsPerTick: Double = 0) -> Double {
        wireLimitHz(clockHz: clockHz, magnetometerRateHz: magnetometerRateHz, extraBitsPerTick: extraBitsPerTick) * usableFraction
    }
}

extension ConfigSchema {
    /// `loop.rate_hz` against what the bus can carry.
    static let busRule = ConfigRule(paths: ["loop.rate_hz", "board.i2c_clock_hz"]) { file, _ in
        let rate = file.number("loop.rate_hz")
        let clock = Double(file.integer("board.i2c_clock_hz"))
        let magnetometer = file.boolean("sensor.magnetometer") ? Double(file.integer("sensor.magnetometer_rate_hz")) : 0
        let wire = BusBudget.wireLimitHz(clockHz: clock, magnetometerRateHz: magnetometer)
        let usable = BusBudget.usableLimitHz(clockHz: clock, magnetometerRateHz: magnetometer)
        guard rate > usable else { return nil }
        let kHz = Int(clock / 1000)
        var message = "\(formatRate(rate)) Hz is more than a \(kHz) kHz I²C bus carries: at most \(Int(usable)) Hz "
            + "(two thirds of its wire limit, \(Int(wire)) Hz, for a 15-byte burst and a checked register per tick"
            + (magnetometer > 0 ? " and the magnetometer at \(Int(magnetometer)) Hz" : "") + "; docs/wiring.md)"
        if clock < 400_000 { message += "; use a 400 kHz bus (board.i2c_clock_hz: 400000, dtparam=i2c_arm_baudrate=400000) or a lower rate" }
        else { message += "; lower loop.rate_hz" }
        return message
    }

    static func formatRate(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}

// MPU-9250 register map (InvenSense RM-MPU-9250A-00 rev 1.6). Addresses as data; the bit
// fields the driver and the simulated chip use are option sets or enums with their bit range.

/// MPU-9250 register addresses.
public enum MPU9250Register: UInt8, Sendable, CaseIterable {
    case sampleRateDivider = 0x19   // SMPLRT_DIV
    case config = 0x1A              // CONFIG: FIFO_MODE [6], EXT_SYNC_SET [5:3], DLPF_CFG [2:0]
    case gyroConfig = 0x1B          // GYRO_CONFIG: GYRO_FS_SEL [4:3], FCHOICE_B [1:0]
    case accelConfig = 0x1C         // ACCEL_CONFIG: ACCEL_FS_SEL [4:3]
    case accelConfig2 = 0x1D        // ACCEL_CONFIG 2: ACCEL_FCHOICE_B [3], A_DLPF_CFG [2:0]
    case fifoEnable = 0x23          // FIFO_EN
    case i2cMasterControl = 0x24    // I2C_MST_CTRL
    case interruptPinConfig = 0x37  // INT_PIN_CFG: BYPASS_EN [1]
    case interruptEnable = 0x38     // INT_ENABLE
    case interruptStatus = 0x3A     // INT_STATUS: FIFO_OFLOW_INT [4], RAW_DATA_RDY_INT [0]
    case accelXHigh = 0x3B          // ACCEL_XOUT_H: first of the 14-byte accel/temp/gyro burst
    case temperatureHigh = 0x41     // TEMP_OUT_H
    case gyroXHigh = 0x43           // GYRO_XOUT_H
    case signalPathReset = 0x68     // SIGNAL_PATH_RESET
    case userControl = 0x6A         // USER_CTRL
    case powerManagement1 = 0x6B    // PWR_MGMT_1: H_RESET [7], SLEEP [6], CLKSEL [2:0]
    case powerManagement2 = 0x6C    // PWR_MGMT_2: DIS_XA..DIS_ZG [5:0]
    case fifoCountHigh = 0x72       // FIFO_COUNTH [4:0] (13-bit count, high byte first)
    case fifoCountLow = 0x73        // FIFO_COUNTL
    case fifoReadWrite = 0x74       // FIFO_R_W: reading pops bytes, the address does not advance
    case whoAmI = 0x75              // WHO_AM_I
}

extension MPU9250Register {
    /// The register's name in the datasheet, for log lines.
    public var datasheetName: String {
        switch self {
        case .sampleRateDivider: "SMPLRT_DIV"
        case .config: "CONFIG"
        case .gyroConfig: "GYRO_CONFIG"
        case .accelConfig: "ACCEL_CONFIG"
        case .accelConfig2: "ACCEL_CONFIG2"
        case .fifoEnable: "FIFO_EN"
        case .i2cMasterControl: "I2C_MST_CTRL"
        case .interruptPinConfig: "INT_PIN_CFG"
        case .interruptEnable: "INT_ENABLE"
        case .interruptStatus: "INT_STATUS"
        case .accelXHigh: "ACCEL_XOUT_H"
        case .temperatureHigh: "TEMP_OUT_H"
        case .gyroXHigh: "GYRO_XOUT_H"
        case .signalPathReset: "SIGNAL_PATH_RESET"
        case .userControl: "USER_CTRL"
        case .powerManagement1: "PWR_MGMT_1"
        case .powerManagement2: "PWR_MGMT_2"
        case .fifoCountHigh: "FIFO_COUNTH"
        case .fifoCountLow: "FIFO_COUNTL"
        case .fifoReadWrite: "FIFO_R_W"
        case .whoAmI: "WHO_AM_I"
        }
    }
}

/// PWR_MGMT_1 (0x6B).
public struct PowerManagement1: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 7 H_RESET: reset all registers to their power-on values; self-clearing.
    public static let deviceReset = PowerManagement1(rawValue: 1 << 7)
    /// Bit 6 SLEEP.
    public static let sleep = PowerManagement1(rawValue: 1 << 6)
    /// Bits 2:0 CLKSEL = 1: the best available clock (gyro PLL when ready, else 20 MHz RC).
    public static let clockAutoPLL = PowerManagement1(rawValue: 0b001)
}

/// USER_CTRL (0x6A).
public struct UserControl: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 6 FIFO_EN.
    public static let fifoEnable = UserControl(rawValue: 1 << 6)
    /// Bit 5 I2C_MST_EN: the auxiliary I²C master; must be 0 for bypass to the AK8963.
    public static let i2cMasterEnable = UserControl(rawValue: 1 << 5)
    /// Bit 2 FIFO_RST: empties the FIFO; self-clearing.
    public static let fifoReset = UserControl(rawValue: 1 << 2)
    /// Bit 0 SIG_COND_RST: resets signal paths and sensor registers; self-clearing.
    public static let signalConditionReset = UserControl(rawValue: 1 << 0)
}

/// INT_PIN_CFG (0x37).
public struct InterruptPinConfig: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 1 BYPASS_EN: connects the auxiliary bus (AK8963) to the host bus.
    public static let bypassEnable = InterruptPinConfig(rawValue: 1 << 1)
}

/// INT_STATUS (0x3A); cleared by reading it.
public struct InterruptStatus: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 4 FIFO_OFLOW_INT: the FIFO overflowed and lost data.
    public static let fifoOverflow = InterruptStatus(rawValue: 1 << 4)
    /// Bit 0 RAW_DATA_RDY_INT.
    public static let rawDataReady = InterruptStatus(rawValue: 1 << 0)
}

/// FIFO_EN (0x23): which data the FIFO records, in register order (accel, temp, gyro).
public struct FIFOEnable: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let temperature = FIFOEnable(rawValue: 1 << 7)
    public static let gyroX = FIFOEnable(rawValue: 1 << 6)
    public static let gyroY = FIFOEnable(rawValue: 1 << 5)
    public static let gyroZ = FIFOEnable(rawValue: 1 << 4)
    public static let accelerometer = FIFOEnable(rawValue: 1 << 3)
    /// Accel, temperature and gyro: 14-byte frames laid out exactly like the 0x3B burst.
    public static let inertialFrame: FIFOEnable = [.accelerometer, .temperature, .gyroX, .gyroY, .gyroZ]
}

/// WHO_AM_I values of the InvenSense family, and what each means for us.
public enum InvenSenseModel: Sendable, Equatable, CustomStringConvertible {
    case mpu9250, mpu9255, mpu6500, mpu6050, icm20608, icm20602, mpu9250Clone75
    case unknown(UInt8)

    // Inlinable, like `isCompatible` and `hasMagnetometer`: the loop's checked
    // re-initialisation in another module identifies the chip.
    @inlinable
    public init(whoAmI: UInt8) {
        switch whoAmI {
        case 0x71: self = .mpu9250
        case 0x73: self = .mpu9255
        case 0x70: self = .mpu6500
        case 0x68: self = .mpu6050
        case 0xAF: self = .icm20608
        case 0x12: self = .icm20602
        case 0x75: self = .mpu9250Clone75
        default: self = .unknown(whoAmI)
        }
    }

    /// Whether the package contains an AK8963 (reached through bypass).
    @inlinable
    public var hasMagnetometer: Bool {
        // A switch, not the synthesised `==`, which the checked tick could not see through.
        switch self {
        case .mpu9250, .mpu9255: true
        default: false
        }
    }

    /// Whether the accel/gyro register layout matches the MPU-9250's (0x3B burst, scales).
    @inlinable
    public var isCompatible: Bool {
        if case .unknown = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .mpu9250: "MPU-9250"
        case .mpu9255: "MPU-9255"
        case .mpu6500: "MPU-6500 (no magnetometer)"
        case .mpu6050: "MPU-6050/MPU-6000 (no magnetometer)"
        case .icm20608: "ICM-20608 (no magnetometer)"
        case .icm20602: "ICM-20602 (no magnetometer)"
        case .mpu9250Clone75: "MPU-6500-compatible part answering 0x75 (often sold as MPU-9250; no magnetometer)"
        case .unknown(let value): "unknown chip (WHO_AM_I \(hex(value)))"
        }
    }
}

@usableFromInline
func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

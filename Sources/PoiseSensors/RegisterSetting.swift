import PoiseDeviceSettings

/// One register value the driver writes at configuration and reads back to verify.
public struct RegisterSetting: Sendable, Equatable, CustomStringConvertible {
    public var register: MPU9250Register
    public var value: UInt8
    /// Bits that must read back equal to `value` (self-clearing bits are left out).
    public var mask: UInt8
    /// What the setting is for, in words for logs.
    public var purpose: String

    public init(_ register: MPU9250Register, _ value: UInt8, mask: UInt8 = 0xFF, _ purpose: String) {
        self.register = register
        self.value = value
        self.mask = mask
        self.purpose = purpose
    }

    public var description: String { "\(purpose): \(hex(register.rawValue)) = \(hex(value))" }
}

extension MPU9250Settings {
    /// The one configuration table: written in order by the driver, then read back and compared.
    public var configurationTable: [RegisterSetting] { configurationTable(for: .mpu9250) }

    /// The table for a particular chip: the MPU-6050 has no ACCEL_CONFIG2 (its accelerometer
    /// shares the gyro's low-pass).
    public func configurationTable(for model: InvenSenseModel) -> [RegisterSetting] {
        let table = fullConfigurationTable
        return model == .mpu6050 ? table.filter { $0.register != .accelConfig2 } : table
    }

    var fullConfigurationTable: [RegisterSetting] {
        let userControl: UserControl = useFIFO ? [.fifoEnable] : []
        let fifo: FIFOEnable = useFIFO ? .inertialFrame : []
        return [
            RegisterSetting(.powerManagement1, PowerManagement1.clockAutoPLL.rawValue, "clock: PLL, awake"),
            RegisterSetting(.powerManagement2, 0x00, "all accel and gyro axes on"),
            RegisterSetting(.config, gyroscopeBandwidth.rawValue, mask: 0x47,
                            "gyro low-pass \(gyroscopeBandwidth.hertz) Hz"),
            RegisterSetting(.sampleRateDivider, sampleRateDivider, "output rate \(outputRate) Hz"),
            RegisterSetting(.gyroConfig, gyroscopeRange.rawValue << 3, mask: 0x1B,
                            "gyro ±\(Int(gyroscopeRange.degreesPerSecond)) °/s"),
            RegisterSetting(.accelConfig, accelerometerRange.rawValue << 3, mask: 0x18,
                            "accel ±\(Int(accelerometerRange.g)) g"),
            RegisterSetting(.accelConfig2, accelerometerBandwidth.rawValue, mask: 0x0F,
                            "accel low-pass \(accelerometerBandwidth.hertz) Hz"),
            // I2C_MST_EN = 0 and BYPASS_EN = 1 put the AK8963 on the host bus.
            RegisterSetting(.userControl, userControl.rawValue, mask: 0x70, "auxiliary I²C master off"),
            RegisterSetting(.interruptPinConfig, InterruptPinConfig.bypassEnable.rawValue, mask: 0x02,
                            "bypass to the magnetometer"),
            RegisterSetting(.fifoEnable, fifo.rawValue, useFIFO ? "FIFO records accel, temp, gyro" : "FIFO off"),
            // RAW_RDY_EN: INT_STATUS then says whether a read brings a new conversion.
            RegisterSetting(.interruptEnable, InterruptStatus.rawDataReady.rawValue, "data-ready status on"),
        ]
    }
}

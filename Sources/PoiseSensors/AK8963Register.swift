
// AK8963 register map (AKM AK8963 datasheet MS1356-E-02), reached at 0x0C through the
// MPU-9250's bypass.

/// AK8963 register addresses.
public enum AK8963Register: UInt8, Sendable, CaseIterable {
    case deviceID = 0x00      // WIA: 0x48
    case information = 0x01  // INFO
    case status1 = 0x02       // ST1: DOR [1], DRDY [0]
    case dataXLow = 0x03      // HXL … HZH: little-endian 16-bit
    case status2 = 0x09       // ST2: BITM [4], HOFL [3]; reading it releases the data
    case control1 = 0x0A      // CNTL1: BIT [4] (1 = 16-bit), MODE [3:0]
    case control2 = 0x0B      // CNTL2: SRST [0]
    case sensitivityX = 0x10  // ASAX (fuse ROM; readable in fuse ROM access mode)
    case sensitivityY = 0x11  // ASAY
    case sensitivityZ = 0x12  // ASAZ
}

/// The AK8963's fixed facts.
public enum AK8963 {
    /// 7-bit I²C address (CAD1 = CAD0 = 0).
    public static let address: UInt8 = 0x0C
    /// WIA value.
    public static let deviceID: UInt8 = 0x48
    /// µT per LSB at 16-bit output.
    public static let microteslaPerLSB16: Float = 0.15
    /// µT per LSB at 14-bit output.
    public static let microteslaPerLSB14: Float = 0.6
    /// Bytes of one read of ST1, six data bytes and ST2 (0x02…0x09).
    public static let readLength = 8
}

/// ST1 (0x02).
public struct AK8963Status1: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 0 DRDY: new data ready.
    public static let dataReady = AK8963Status1(rawValue: 1 << 0)
    /// Bit 1 DOR: a measurement was skipped because the previous was not read.
    public static let dataOverrun = AK8963Status1(rawValue: 1 << 1)
}

/// ST2 (0x09).
public struct AK8963Status2: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 3 HOFL: magnetic sensor overflow (|field| beyond 4912 µT); the data is invalid.
    public static let overflow = AK8963Status2(rawValue: 1 << 3)
    /// Bit 4 BITM: mirrors CNTL1 BIT (1 = 16-bit).
    public static let output16Bit = AK8963Status2(rawValue: 1 << 4)
}

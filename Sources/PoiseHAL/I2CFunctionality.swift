/// What an I²C adapter can do, as reported by the `I2C_FUNCS` ioctl.
///
/// Bit values are the kernel's `I2C_FUNC_*` constants (`linux/i2c.h`).
public struct I2CFunctionality: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Plain I²C messages (`I2C_RDWR`), including a write and a read joined by a repeated start.
    public static let plainI2C = I2CFunctionality(rawValue: 0x0000_0001)
    /// SMBus quick command (used to scan a bus).
    public static let smbusQuick = I2CFunctionality(rawValue: 0x0001_0000)
    /// SMBus receive byte (used to scan EEPROM ranges).
    public static let smbusReadByte = I2CFunctionality(rawValue: 0x0002_0000)
    /// SMBus read byte data (one register).
    public static let smbusReadByteData = I2CFunctionality(rawValue: 0x0008_0000)
    /// SMBus write byte data (one register).
    public static let smbusWriteByteData = I2CFunctionality(rawValue: 0x0010_0000)
    /// I²C block read through SMBus (up to 32 bytes from a register).
    public static let smbusReadI2CBlock = I2CFunctionality(rawValue: 0x0400_0000)
    /// I²C block write through SMBus (up to 32 bytes to a register).
    public static let smbusWriteI2CBlock = I2CFunctionality(rawValue: 0x0800_0000)

    public var description: String {
        var names: [String] = []
        if contains(.plainI2C) { names.append("I2C") }
        if contains(.smbusQuick) { names.append("SMBus quick") }
        if contains(.smbusReadByte) { names.append("SMBus read byte") }
        if contains(.smbusReadByteData) { names.append("SMBus read byte data") }
        if contains(.smbusWriteByteData) { names.append("SMBus write byte data") }
        if contains(.smbusReadI2CBlock) { names.append("SMBus I2C block read") }
        if contains(.smbusWriteI2CBlock) { names.append("SMBus I2C block write") }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

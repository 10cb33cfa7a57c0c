/// CNTL1 (0x0A) operating modes, bits 3:0, with BIT [4] = 16-bit output where it applies.
public enum AK8963Mode: UInt8, Sendable {
    case powerDown = 0x00
    case single16Bit = 0x11
    /// Continuous measurement mode 1: 8 Hz, 16-bit.
    case continuous8Hz = 0x12
    /// Continuous measurement mode 2: 100 Hz, 16-bit.
    case continuous100Hz = 0x16
    case fuseROMAccess = 0x0F

    /// Measurements per second in a continuous mode, 0 otherwise.
    public var rate: Double {
        switch self {
        case .continuous8Hz: 8
        case .continuous100Hz: 100
        default: 0
        }
    }
}

/// A bus scan over the usual 7-bit address range, like `i2cdetect -y N`.
public struct I2CScan: Sendable, Equatable {
    /// The addresses `i2cdetect` probes by default (0x00–0x02 and 0x78–0x7F are reserved).
    public static let addresses: ClosedRange<UInt8> = 0x03...0x77

    /// What answered where; addresses that were not probed are absent from the dictionary.
    public var results: [UInt8: I2CProbeResult]

    public init(results: [UInt8: I2CProbeResult]) { self.results = results }

    /// Probes every address in `addresses`.
    public init<Bus: I2CBus>(bus: inout Bus, addresses: ClosedRange<UInt8> = I2CScan.addresses) {
        var results: [UInt8: I2CProbeResult] = [:]
        for address in addresses { results[address] = bus.probe(address: address) }
        self.results = results
    }

    /// Addresses where a device acknowledged, ascending.
    public var present: [UInt8] { results.filter { $0.value == .present }.keys.sorted() }

    /// The `i2cdetect` grid: `--` nothing, `UU` held by a kernel driver, hex = a device.
    public var grid: String {
        let digits = Array("0123456789abcdef")
        var lines = ["   " + (0..<16).map { "  \(digits[$0])" }.joined()]
        for row in 0..<8 {
            var line = "\(digits[row])0:"
            for column in 0..<16 {
                let address = UInt8(row * 16 + column)
                switch results[address] {
                case nil: line += "   "
                case .absent: line += " --"
                case .busy: line += " UU"
                case .present: line += " \(digits[Int(address >> 4)])\(digits[Int(address & 0xF)])"
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension I2CError {
    /// What the user can do about this error, when there is something specific.
    public var setupHint: String? {
        guard case .open = operation else {
            if errno == .remoteIO || errno == .ioError {
                return "check the wiring (3V3, GND, SDA to GPIO2, SCL to GPIO3; see docs/wiring.md) and the address (AD0 low = 0x68, high = 0x69)"
            }
            return nil
        }
        switch errno {
        case .noSuchFileOrDirectory:
            return "I²C is not enabled: add `dtparam=i2c_arm=on` to /boot/firmware/config.txt and reboot, then `sudo modprobe i2c-dev` (add i2c-dev to /etc/modules to keep it); `ls /dev/i2c-*` lists the buses"
        case .permissionDenied:
            return "no permission: add your user to the i2c group (`sudo adduser $USER i2c`, then log in again) or run with sudo"
        default:
            return nil
        }
    }
}

import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

// The start-up path's faults as plain data (`SensorNotices.StartFault`), so a re-initialisation
// on the loop thread keeps them without building `MPU9250Error`'s strings; the typed fault and
// its sentence are made from them off that thread.

extension SensorNotices.Transfer {
    /// `error` without its bus's name (always the driver's own bus).
    init(_ error: I2CError) {
        self.init()
        switch error.operation {
        case .open: operation = 1
        case .queryFunctionality: operation = 2
        case .selectAddress: operation = 3
        case let .read(count, register):
            operation = 4
            self.count = UInt16(clamping: count)
            self.register = register
        case let .write(register, value):
            operation = 5
            self.register = register
            self.value = value
        case let .writeBlock(count, register):
            operation = 6
            self.count = UInt16(clamping: count)
            self.register = register
        }
        if let target = error.address {
            address = target
            hasAddress = true
        }
        errno = error.errno.rawValue
    }

    /// The typed error again, on `bus`.
    func error(bus: String) -> I2CError {
        let kind: I2CError.Operation
        switch operation {
        case 1: kind = .open
        case 2: kind = .queryFunctionality
        case 3: kind = .selectAddress
        case 5: kind = .write(register: register, value: value)
        case 6: kind = .writeBlock(count: Int(count), register: register)
        default: kind = .read(count: Int(count), register: register)
        }
        return I2CError(kind, address: hasAddress ? address : nil, bus: bus, errno: Errno(rawValue: errno))
    }
}

extension SensorNotices.StartFault {
    /// The steps of `MPU9250Error`'s start-up cases and of `AK8963Error`'s set-up cases.
    enum Step: UInt8 {
        case none = 0
        case reset, noAnswer, whoAmI, configurationWrite, configurationReadback, configurationMismatch, fifoReset
        case magnetometerNoAnswer, magnetometerDeviceID
    }

    init(_ step: Step, register: UInt8 = 0, read: UInt8 = 0, _ error: I2CError? = nil) {
        self.init()
        self.step = step.rawValue
        self.register = register
        self.read = read
        if let error { transfer = SensorNotices.Transfer(error) }
    }

    var isNone: Bool { step == 0 }
}

extension MPU9250Settings {
    /// The typed start-up fault `fault` stands for, on `bus` (nil for none or a magnetometer's).
    func startError(_ fault: SensorNotices.StartFault, bus: String) -> MPU9250Error? {
        let error = fault.transfer.error(bus: bus)
        switch SensorNotices.StartFault.Step(rawValue: fault.step) ?? .none {
        case .reset: return .reset(error)
        case .noAnswer: return .noAnswer(error)
        case .whoAmI: return .whoAmI(fault.register, address: address)
        case .configurationWrite: return .configurationWrite(setting(fault.register), error)
        case .configurationReadback: return .configurationReadback(setting(fault.register), error)
        case .configurationMismatch: return .configurationMismatch(setting(fault.register), read: fault.read)
        case .fifoReset: return .fifoReset(error)
        case .none, .magnetometerNoAnswer, .magnetometerDeviceID: return nil
        }
    }

    /// The typed magnetometer set-up fault `fault` stands for, on `bus` (nil for none).
    func magnetometerError(_ fault: SensorNotices.StartFault, bus: String) -> AK8963Error? {
        switch SensorNotices.StartFault.Step(rawValue: fault.step) ?? .none {
        case .magnetometerNoAnswer: return .noAnswer(fault.transfer.error(bus: bus))
        case .magnetometerDeviceID: return .deviceID(fault.register)
        default: return nil
        }
    }

    /// The configuration table's entry for `register`.
    func setting(_ register: UInt8) -> RegisterSetting {
        fullConfigurationTable.first { $0.register.rawValue == register }
            ?? RegisterSetting(MPU9250Register(rawValue: register) ?? .whoAmI, 0, "register \(hex(register))")
    }
}

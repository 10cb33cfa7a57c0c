import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

// The start-up path's faults as plain data (`SensorNotices.StartFault`), so a re-initialisation
// on the loop thread keeps them without building `MPU9250Error`'s strings; the typed fault and
// its sentence are made from them off that thread.

/// `error` without its bus's name (always the driver's own bus), as plain data. (A function
/// of this module, not an initialiser in an extension of PoiseFlightCore's type: the loop's
/// checked tick in another module must see its body.)
@inlinable
func plainTransfer(_ error: I2CError) -> SensorNotices.Transfer {
    var transfer = SensorNotices.Transfer()
    switch error.operation {
    case .open: transfer.operation = TransferOperation.open.rawValue
    case .queryFunctionality: transfer.operation = TransferOperation.queryFunctionality.rawValue
    case .selectAddress: transfer.operation = TransferOperation.selectAddress.rawValue
    case let .read(count, register):
        transfer.operation = TransferOperation.read.rawValue
        transfer.count = UInt16(clamping: count)
        transfer.register = register
    case let .write(register, value):
        transfer.operation = TransferOperation.write.rawValue
        transfer.register = register
        transfer.value = value
    case let .writeBlock(count, register):
        transfer.operation = TransferOperation.writeBlock.rawValue
        transfer.count = UInt16(clamping: count)
        transfer.register = register
    }
    if let target = error.address {
        transfer.address = target
        transfer.hasAddress = true
    }
    transfer.errno = error.errno.rawValue
    return transfer
}

/// `I2CError.Operation`'s cases as `SensorNotices.Transfer.operation` numbers them.
@usableFromInline
enum TransferOperation: UInt8 {
    case none = 0
    case open, queryFunctionality, selectAddress, read, write, writeBlock
}

extension SensorNotices.Transfer {
    /// The typed error again, on `bus`.
    func error(bus: String) -> I2CError {
        let kind: I2CError.Operation
        switch TransferOperation(rawValue: operation) ?? .read {
        case .open: kind = .open
        case .queryFunctionality: kind = .queryFunctionality
        case .selectAddress: kind = .selectAddress
        case .write: kind = .write(register: register, value: value)
        case .writeBlock: kind = .writeBlock(count: Int(count), register: register)
        case .none, .read: kind = .read(count: Int(count), register: register)
        }
        return I2CError(kind, address: hasAddress ? address : nil, bus: bus, errno: Errno(rawValue: errno))
    }
}

/// The steps of `MPU9250Error`'s start-up cases and of `AK8963Error`'s set-up cases, as
/// `SensorNotices.StartFault.step` numbers them.
enum StartStep: UInt8 {
    case none = 0
    case reset, noAnswer, whoAmI, configurationWrite, configurationReadback, configurationMismatch, fifoReset
    case magnetometerNoAnswer, magnetometerDeviceID

    /// This step's fault: its register or the identity a chip answered, a value read back,
    /// the transfer that failed.
    func fault(register: UInt8 = 0, read: UInt8 = 0, _ error: I2CError? = nil) -> SensorNotices.StartFault {
        var fault = SensorNotices.StartFault()
        fault.step = rawValue
        fault.register = register
        fault.read = read
        if let error { fault.transfer = plainTransfer(error) }
        return fault
    }
}

extension MPU9250Settings {
    /// The typed start-up fault `fault` stands for, on `bus` (nil for none or a magnetometer's).
    func startError(_ fault: SensorNotices.StartFault, bus: String) -> MPU9250Error? {
        let error = fault.transfer.error(bus: bus)
        switch StartStep(rawValue: fault.step) ?? .none {
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
        switch StartStep(rawValue: fault.step) ?? .none {
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

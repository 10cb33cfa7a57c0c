import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

extension MPU9250 {
    /// Identifies the chip, writes and verifies the configuration table, sets up the
    /// magnetometer and starts reading. Runs within one tick; what it did goes to `notices`
    /// (plain data: the table is the driver's own fixed-size copy, the faults are numbers).
    mutating func configure() {
        let address = limits.address
        let whoAmI: UInt8
        do throws(I2CError) {
            whoAmI = try readRegister(address: address, register: MPU9250Register.whoAmI.rawValue)
        } catch {
            return startFailed(StartStep.noAnswer.fault(error))
        }
        let found = InvenSenseModel(whoAmI: whoAmI)
        guard found.isCompatible else {
            var fault = StartStep.whoAmI.fault(register: whoAmI)
            fault.transfer.address = address
            return startFailed(fault)
        }
        // WHO_AM_I, not the models compared: each compatible model has its own, and the
        // models' synthesised `==` is not visible to the checked tick in another module.
        if modelWhoAmI != whoAmI {
            notices.events.insert(.found)
            notices.whoAmI = whoAmI
        }
        model = found
        modelWhoAmI = whoAmI
        var isMPU6050 = false
        if case .mpu6050 = found { isMPU6050 = true }
        if isMPU6050 {
            scale.temperatureSensitivity = 340
            scale.temperatureOffset = 36.53
        }
        var table = isMPU6050 ? configurationTable6050 : configurationTable
        for index in 0..<table.count {
            let register = table.registers[index]
            do throws(I2CError) {
                try bus.write(address: address, register: register, value: table.written[index])
            } catch {
                return startFailed(StartStep.configurationWrite.fault(register: register, error))
            }
        }
        for index in 0..<table.count {
            let register = table.registers[index]
            do throws(I2CError) {
                let value = try readRegister(address: address, register: register)
                guard value & table.masks[index] == table.values[index] else {
                    return startFailed(StartStep.configurationMismatch.fault(register: register, read: value))
                }
            } catch {
                return startFailed(StartStep.configurationReadback.fault(register: register, error))
            }
        }
        if !directReads {
            do throws(I2CError) {
                try resetFIFO()
            } catch {
                return startFailed(StartStep.fifoReset.fault(error))
            }
        }
        magnetometer = nil
        if found.hasMagnetometer && limits.useMagnetometer {
            configureMagnetometer()
        }
        table.next = 0
        checkedRegisters = table
        phase = .running
        started = true
        consecutiveFailures = 0
        identicalReads = 0
        if let loss = lossNotices {
            if counters.reinitAttempts > 0 { counters.reinitSuccesses += 1 }
            notices.events.insert(.recovered)
            notices.lostKinds = loss.kinds
            notices.failures = loss.failures
            notices.errno = loss.errno
            notices.register = loss.register
            notices.expected = loss.expected
            notices.found = loss.found
        } else if startFault.step != 0 {
            if counters.reinitAttempts > 0 { counters.reinitSuccesses += 1 }
            notices.events.insert(.recovered)
            notices.fault = startFault
        }
        startFault = SensorNotices.StartFault()
        lossNotices = nil
        notices.events.insert(.configured)
        if magnetometer != nil { notices.events.insert(.nineAxes) }
        notices.whoAmI = whoAmI
    }

    /// One register, one transfer, no retry (the start-up path's reads): into a block by
    /// value, as the running tick reads — the bus's `readRegister` hands a closure the bus,
    /// which is reference counting in the checked tick.
    mutating func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        var block = I2CBlock()
        block.count = 1
        try bus.read(address: address, register: register, into: &block)
        return block.bytes[0]
    }

    /// FIFO_RST with FIFO_EN kept on.
    mutating func resetFIFO() throws(I2CError) {
        let control = UserControl.fifoEnable.rawValue | UserControl.fifoReset.rawValue
        try bus.write(address: limits.address, register: MPU9250Register.userControl.rawValue, value: control)
    }
}

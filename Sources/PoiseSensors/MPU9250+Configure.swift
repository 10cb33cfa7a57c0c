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
            whoAmI = try bus.readRegister(address: address, register: MPU9250Register.whoAmI.rawValue)
        } catch {
            return startFailed(SensorNotices.StartFault(.noAnswer, error))
        }
        let found = InvenSenseModel(whoAmI: whoAmI)
        guard found.isCompatible else {
            var fault = SensorNotices.StartFault(.whoAmI, register: whoAmI)
            fault.transfer.address = address
            return startFailed(fault)
        }
        if model != found {
            notices.events.insert(.found)
            notices.whoAmI = whoAmI
        }
        model = found
        if found == .mpu6050 {
            scale.temperatureSensitivity = 340
            scale.temperatureOffset = 36.53
        }
        var table = found == .mpu6050 ? configurationTable6050 : configurationTable
        for index in 0..<table.count {
            let register = table.registers[index]
            do throws(I2CError) {
                try bus.write(address: address, register: register, value: table.written[index])
            } catch {
                return startFailed(SensorNotices.StartFault(.configurationWrite, register: register, error))
            }
        }
        for index in 0..<table.count {
            let register = table.registers[index]
            do throws(I2CError) {
                let value = try bus.readRegister(address: address, register: register)
                guard value & table.masks[index] == table.values[index] else {
                    return startFailed(SensorNotices.StartFault(.configurationMismatch, register: register, read: value))
                }
            } catch {
                return startFailed(SensorNotices.StartFault(.configurationReadback, register: register, error))
            }
        }
        if !directReads {
            do throws(I2CError) {
                try resetFIFO()
            } catch {
                return startFailed(SensorNotices.StartFault(.fifoReset, error))
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
        } else if !startFault.isNone {
            if counters.reinitAttempts > 0 { counters.reinitSuccesses += 1 }
            notices.events.insert(.recovered)
            notices.fault = startFault
        }
        startFault = SensorNotices.StartFault()
        lossNotices = nil
        notices.events.insert(magnetometer != nil ? [.configured, .nineAxes] : .configured)
        notices.whoAmI = whoAmI
    }

    /// FIFO_RST with FIFO_EN kept on.
    mutating func resetFIFO() throws(I2CError) {
        let control: UserControl = [.fifoEnable, .fifoReset]
        try bus.write(address: limits.address, register: MPU9250Register.userControl.rawValue, value: control.rawValue)
    }
}

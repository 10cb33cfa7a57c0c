import PoiseDeviceSettings
import PoiseHAL

extension MPU9250 {
    /// Identifies the chip, writes and verifies the configuration table, sets up the
    /// magnetometer and starts reading. Runs within one tick.
    mutating func configure() {
        let address = settings.address
        let whoAmI: UInt8
        do {
            whoAmI = try bus.readRegister(address: address, register: MPU9250Register.whoAmI.rawValue)
        } catch {
            return startFailed(.noAnswer(error))
        }
        let found = InvenSenseModel(whoAmI: whoAmI)
        guard found.isCompatible else {
            return startFailed(.whoAmI(whoAmI, address: address))
        }
        if model != found {
            if found.hasMagnetometer {
                logger.info("found \(found) (WHO_AM_I \(hex(whoAmI))) at \(hex(address)) on \(bus.path)")
            } else {
                logger.warning("found \(found) (WHO_AM_I \(hex(whoAmI))) at \(hex(address)), not an MPU-9250: there is no magnetometer; running 6D")
            }
        }
        model = found
        if found == .mpu6050 {
            scale.temperatureSensitivity = 340
            scale.temperatureOffset = 36.53
        }
        let table = settings.configurationTable(for: found)
        for setting in table {
            do {
                try bus.write(address: address, register: setting.register.rawValue, value: setting.value)
            } catch {
                return startFailed(.configurationWrite(setting, error))
            }
        }
        for setting in table {
            do {
                let value = try bus.readRegister(address: address, register: setting.register.rawValue)
                guard value & setting.mask == setting.value & setting.mask else {
                    return startFailed(.configurationMismatch(setting, read: value))
                }
            } catch {
                return startFailed(.configurationReadback(setting, error))
            }
        }
        if settings.useFIFO {
            do {
                try resetFIFO()
            } catch {
                return startFailed(.fifoReset(error))
            }
        }
        magnetometer = nil
        if found.hasMagnetometer && settings.magnetometerMode != .powerDown {
            configureMagnetometer()
        }
        checkedRegisters = CheckedRegisters(table)
        phase = .running
        consecutiveFailures = 0
        identicalReads = 0
        if lostReason != nil {
            if counters.reinitAttempts > 0 { counters.reinitSuccesses += 1 }
            logger.notice("sensor recovered after re-initialisation (was: \(lostReason ?? ""))")
            startFault = nil
            lossNotices = nil
        }
        logger.info("configured: \(table.map { $0.purpose }.joined(separator: ", ")); \(hasMagnetometer ? "9D" : "6D")")
    }

    /// FIFO_RST with FIFO_EN kept on.
    mutating func resetFIFO() throws(I2CError) {
        let control: UserControl = [.fifoEnable, .fifoReset]
        try bus.write(address: settings.address, register: MPU9250Register.userControl.rawValue, value: control.rawValue)
    }
}

import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

/// One of the driver's sentences, with the level the driver logs it at.
public struct SensorMessage: Sendable, Equatable {
    public var level: DriverLog.Level
    public var text: String

    public init(_ level: DriverLog.Level, _ text: String) {
        self.level = level
        self.text = text
    }

    /// Logged at the error level.
    public var error: Bool { level == .error }

    /// Whether a program's log shows it: warnings and errors always, information unless
    /// `quiet` (the driver's logger at the warning level), debugging never.
    public func shown(quiet: Bool) -> Bool {
        level >= .warning || (!quiet && level >= .info)
    }
}

extension MPU9250Settings {
    /// The sentences for `notices`, each with the level the driver logs it at; `bus`, the
    /// driver's bus device (for example `/dev/i2c-1`), names it in a failed transfer's words.
    public func messages(for notices: SensorNotices, bus: String = "?") -> [SensorMessage] {
        var out: [SensorMessage] = []
        if !notices.events.isEmpty { startMessages(for: notices, bus: bus, into: &out) }
        let kinds = notices.kinds
        let reason = notices.errno == 0 ? "" : ": " + Self.describe(errno: notices.errno)
        if kinds.contains(.saturated) {
            out.append(SensorMessage(.warning, "accel or gyro saturated: motion exceeds ±\(Int(accelerometerRange.g)) g / ±\(Int(gyroscopeRange.degreesPerSecond)) °/s; widen the range"))
        }
        if kinds.contains(.backInRange) { out.append(SensorMessage(.warning, "accel and gyro back within range")) }
        if kinds.contains(.readFailed) {
            out.append(SensorMessage(.warning, "read failed after \(retries + 1) attempts (burst at 0x3B from \(Self.hexadecimal(address))), retrying next tick\(reason)"))
        }
        if kinds.contains(.lostAfterFailedReads) {
            out.append(SensorMessage(.error, "sensor lost: \(notices.failures) consecutive failed reads\(reason); re-initialising every \(reinitInterval) s"))
        }
        if kinds.contains(.lostStuckData) {
            out.append(SensorMessage(.error, "sensor lost: stuck data: \(notices.failures) identical reads in a row; re-initialising every \(reinitInterval) s"))
        }
        if kinds.contains(.chipReset) {
            let register = notices.register
            let name = MPU9250Register(rawValue: register).map { "\($0.datasheetName) (\(hex(register)))" } ?? hex(register)
            let purpose = fullConfigurationTable.first { $0.register.rawValue == register }.map { " (\($0.purpose))" } ?? ""
            out.append(SensorMessage(.error, "chip reset: \(name) reads \(hex(notices.found)), configured \(hex(notices.expected))\(purpose): the chip is back at its power-on values (a brown-out?); failsafe, re-configuring in \(reinitInterval) s"))
        }
        if kinds.contains(.magnetometerStopped) {
            out.append(SensorMessage(.warning, "the AK8963 stopped answering\(reason); continuing 6D without the magnetometer"))
        }
        if kinds.contains(.magnetometerSilent) {
            out.append(SensorMessage(.warning, "the AK8963 produced no data in \(notices.failures) reads; continuing 6D without the magnetometer"))
        }
        return out
    }

    /// The start-up path's sentences (reset, configuration, re-initialisation, the
    /// magnetometer's set-up, FIFO recoveries), in the order the driver does those steps.
    func startMessages(for notices: SensorNotices, bus: String, into out: inout [SensorMessage]) {
        let events = notices.events
        if events.contains(.unavailable), let fault = startError(notices.fault, bus: bus) {
            out.append(SensorMessage(.error, "sensor unavailable: \(fault); retrying every \(reinitInterval) s"))
        }
        if events.contains(.failedAgain), let fault = startError(notices.fault, bus: bus) {
            out.append(SensorMessage(.debug, "re-initialisation failed again: \(fault)"))
        }
        let model = InvenSenseModel(whoAmI: notices.whoAmI)
        if events.contains(.found) {
            let found = "found \(model) (WHO_AM_I \(hex(notices.whoAmI))) at \(hex(address))"
            if model.hasMagnetometer {
                out.append(SensorMessage(.info, found + " on \(bus)"))
            } else {
                out.append(SensorMessage(.warning, found + ", not an MPU-9250: there is no magnetometer; running 6D"))
            }
        }
        if events.contains(.magnetometerReady) {
            let asa = notices.asa
            out.append(SensorMessage(.info, "AK8963 at \(hex(AK8963.address)): ASA \(hex(asa[0])) \(hex(asa[1])) \(hex(asa[2])), "
                + "\(magnetometerMode.rate) Hz, read every \(effectiveMagnetometerInterval) ticks"))
        }
        if events.contains(.magnetometerUnavailable), let fault = magnetometerError(notices.magnetometerStart, bus: bus) {
            out.append(SensorMessage(.warning, "\(fault); continuing 6D without the magnetometer"))
        }
        if events.contains(.recovered) {
            var was = ""
            if notices.lostKinds.rawValue != 0 {
                var loss = notices
                loss.events = SensorNotices.Events(rawValue: 0)
                loss.kinds = notices.lostKinds
                was = messages(for: loss, bus: bus).first?.text ?? ""
            } else if let fault = startError(notices.fault, bus: bus) {
                was = fault.description
            }
            out.append(SensorMessage(.notice, "sensor recovered after re-initialisation (was: \(was))"))
        }
        if events.contains(.configured) {
            let purposes = configurationTable(for: model).map { $0.purpose }.joined(separator: ", ")
            out.append(SensorMessage(.info, "configured: \(purposes); \(events.contains(.nineAxes) ? "9D" : "6D")"))
        }
        if events.contains(.fifoOverflow) {
            out.append(SensorMessage(.warning, "FIFO overflowed (ticks too slow for \(outputRate) Hz, or maxFramesPerRead too small); "
                + "data was lost; resetting the FIFO"))
        }
        if events.contains(.fifoMisaligned) {
            out.append(SensorMessage(.warning, "FIFO count \(notices.fifoCount) is not a whole number of 14-byte frames; resetting the FIFO"))
        }
        if events.contains(.fifoFlowing) { out.append(SensorMessage(.info, "FIFO flowing again")) }
    }

    static func hexadecimal(_ value: UInt8) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }

    static func describe(errno code: Int32) -> String {
        let e = Errno(rawValue: code)
        return "\(e.description) (\(e.symbolicName))"
    }
}

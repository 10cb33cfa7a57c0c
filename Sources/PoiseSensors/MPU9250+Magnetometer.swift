import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

/// The AK8963 as the driver sees it once set up.
struct MagnetometerChannel {
    var scale: MagnetometerScale
    /// The fuse-ROM sensitivity adjustment bytes.
    let asa: SIMD3<UInt8>
    /// Latest field, µT, body frame (before calibration).
    var field: SIMD3<Float>? = nil
    var fresh = false
    var consecutiveNotReady = 0
    var consecutiveFailures = 0
    let interval: Int
}

extension MPU9250 {
    /// The AK8963's fuse-ROM sensitivity adjustment (ASA) bytes, while it is in use.
    public var magnetometerSensitivityAdjustment: SIMD3<UInt8>? { magnetometer?.asa }

    /// Why the driver runs without the magnetometer, if it does, as a typed fault.
    public var magnetometerFault: AK8963Error? {
        guard magnetometer == nil else { return nil }
        if let magnetometerLoss { return magnetometerLoss.magnetometerFault }
        return settings.magnetometerError(magnetometerStartFault, bus: bus.path)
    }

    /// Why the driver runs without the magnetometer, if it does, in words.
    public var magnetometerProblem: String? {
        guard magnetometer == nil else { return nil }
        if let magnetometerLoss { return settings.messages(for: magnetometerLoss, bus: bus.path).first?.text }
        return settings.magnetometerError(magnetometerStartFault, bus: bus.path)?.description
    }

    /// WIA check, fuse-ROM ASA read, then the measurement mode. With bypass on (configured
    /// by the table) the AK8963 answers at 0x0C on the host bus. A missing chip means 6D.
    mutating func configureMagnetometer() {
        let ak = AK8963.address
        do throws(I2CError) {
            let wia = try readRegister(address: ak, register: AK8963Register.deviceID.rawValue)
            guard wia == AK8963.deviceID else {
                return degradeMagnetometer(StartStep.magnetometerDeviceID.fault(register: wia))
            }
            let control = AK8963Register.control1.rawValue
            try bus.write(address: ak, register: control, value: AK8963Mode.powerDown.rawValue)
            try bus.write(address: ak, register: control, value: AK8963Mode.fuseROMAccess.rawValue)
            // Into a block by value, as the running tick reads: a closure capturing the
            // driver would mean reference counting in the checked tick.
            var asa = I2CBlock()
            asa.count = 3
            try bus.read(address: ak, register: AK8963Register.sensitivityX.rawValue, into: &asa)
            try bus.write(address: ak, register: control, value: AK8963Mode.powerDown.rawValue)
            // The datasheet asks for 100 µs in power-down between modes; one more
            // transaction on the bus takes at least that long.
            _ = try readRegister(address: ak, register: AK8963Register.deviceID.rawValue)
            try bus.write(address: ak, register: control, value: limits.magnetometerMode)
            let adjustment = SIMD3(asa.bytes[0], asa.bytes[1], asa.bytes[2])
            let scale = MagnetometerScale(asa: adjustment, mounting: mounting)
            magnetometer = MagnetometerChannel(scale: scale, asa: adjustment, interval: limits.magnetometerInterval)
            magnetometerStartFault = SensorNotices.StartFault()
            magnetometerLoss = nil
            notices.events.insert(.magnetometerReady)
            notices.asa = adjustment
        } catch {
            degradeMagnetometer(StartStep.magnetometerNoAnswer.fault(error))
        }
    }

    /// Every `interval` ticks: one 8-byte read of ST1…ST2 (reading ST2 releases the data).
    /// Called after the inertial sample was delivered, so it never delays it.
    mutating func readMagnetometerIfDue() {
        guard var channel = magnetometer, tickIndex % channel.interval == 0 else { return }
        var bytes = AK8963Read(repeating: 0)
        counters.magnetometerReads += 1
        var block = I2CBlock()
        block.count = 8
        var failure: Errno? = nil
        do throws(I2CError) {
            try bus.read(address: AK8963.address, register: AK8963Register.status1.rawValue, into: &block)
        } catch {
            failure = error.errno
        }
        for index in 0..<8 { bytes[index] = block.bytes[index] }
        if let failure {
            counters.magnetometerFailures += 1
            channel.consecutiveFailures += 1
            magnetometer = channel
            if channel.consecutiveFailures >= limits.lostAfterFailures {
                magnetometer = nil
                notices.kinds.insert(.magnetometerStopped)
                notices.errno = failure.rawValue
                var loss = SensorNotices()
                loss.kinds = .magnetometerStopped
                loss.errno = notices.errno
                magnetometerLoss = loss
            }
            return
        }
        channel.consecutiveFailures = 0
        switch decodeMagnetometer(bytes, scale: channel.scale) {
        case .notReady:
            counters.magnetometerNotReady += 1
            channel.consecutiveNotReady += 1
            magnetometer = channel
            if channel.consecutiveNotReady >= limits.magnetometerSilentAfterReads {
                magnetometer = nil
                notices.kinds.insert(.magnetometerSilent)
                notices.failures = Int32(clamping: channel.consecutiveNotReady)
                var loss = SensorNotices()
                loss.kinds = .magnetometerSilent
                loss.failures = notices.failures
                magnetometerLoss = loss
            }
        case .overflow:
            counters.magnetometerOverflows += 1
            channel.consecutiveNotReady = 0
            magnetometer = channel
        case .field(let field):
            counters.magnetometerSamples += 1
            channel.consecutiveNotReady = 0
            channel.field = field
            channel.fresh = true
            magnetometer = channel
        }
    }

    /// Continues 6D; warns once per distinct reason.
    mutating func degradeMagnetometer(_ fault: SensorNotices.StartFault) {
        magnetometer = nil
        guard magnetometerStartFault != fault else { return }
        magnetometerStartFault = fault
        notices.events.insert(.magnetometerUnavailable)
        notices.magnetometerStart = fault
    }
}

import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

/// The MPU-9250 (+ AK8963) driver: a non-blocking state machine advanced once per loop tick.
///
/// RESET (H_RESET) → WAIT (`resetDelay`) → CONFIGURE (identify, write and verify the
/// configuration table, set up the magnetometer) → READ (one 14-byte burst per tick, or the
/// FIFO). Failed reads are retried within the tick; after `lostAfterFailures` failed ticks,
/// or stuck data, the state becomes `lost` and a re-initialisation is tried every
/// `reinitInterval`. Every decision is logged once, with its reason.
///
/// ```swift
/// var imu = MPU9250(bus: SimulatedMPU9250(motion: StaticPose()), settings: .default)
/// imu.bus.advance(to: t)        // simulated time only
/// if let sample = imu.tick() { … }
/// ```
public struct MPU9250<Bus: I2CBus> {
    /// The bus; public so a simulated bus can be advanced and inspected.
    public var bus: Bus
    public let settings: MPU9250Settings
    /// Applied to every sample.
    public var calibration: SensorCalibration = .identity
    public internal(set) var counters = SensorCounters()
    /// What WHO_AM_I said, once configured.
    public internal(set) var model: InvenSenseModel?
    /// Its WHO_AM_I (0: none yet).
    var modelWhoAmI: UInt8 = 0
    /// Why the sensor was last declared lost (or did not start), as a typed fault.
    public var fault: MPU9250Error? {
        if let lossNotices { return lossNotices.driverFault }
        return settings.startError(startFault, bus: bus.path)
    }
    /// Why the sensor was last declared lost (or did not start), in words.
    public var lostReason: String? {
        if let lossNotices { return settings.messages(for: lossNotices, bus: bus.path).first?.text }
        return settings.startError(startFault, bus: bus.path)?.description
    }
    /// Why the last reset or configuration failed (start-up path), as plain data (step 0: none).
    var startFault = SensorNotices.StartFault()
    /// The notice with which the running path declared the sensor lost (plain data, like `startFault`).
    var lossNotices: SensorNotices?
    /// What the running path has to say since the last `takeNotices()`.
    public internal(set) var notices = SensorNotices()
    /// Whether magnetometer data is flowing (false = 6D).
    public var hasMagnetometer: Bool { magnetometer != nil }

    var logger: DriverLog
    // `var`, not `let`: in the checked tick, reading a `let` of this generic value copies the
    // whole driver (its logger and bus hold references), which the optimiser's check refuses.
    /// Direct mode (one burst per tick), not FIFO: the loop's checked path.
    var directReads: Bool
    /// The settings the running path needs, as plain numbers worked out once.
    var limits: RunningLimits
    var phase: Phase = .reset
    var tickIndex = 0
    var consecutiveFailures = 0
    var identicalReads = 0
    var previousBurst = MPU9250Burst(repeating: 0)
    var lastTemperature: Float = .nan
    var saturatedEpisode = false
    var fifoEpisode = false
    var scale: InertialScale
    var magnetometer: MagnetometerChannel? = nil
    /// Why setting the magnetometer up failed (start-up path), as plain data (step 0: none).
    var magnetometerStartFault = SensorNotices.StartFault()
    /// Why the running path dropped the magnetometer (plain data, like `lossNotices`).
    var magnetometerLoss: SensorNotices? = nil
    /// The configuration registers re-read one per running tick (set at configuration).
    var checkedRegisters = CheckedRegisters()
    /// The configuration table as plain data, worked out once: for the MPU-9250 and its
    /// relatives, and for the MPU-6050 (no ACCEL_CONFIG2), so configuring reads no array.
    var configurationTable: CheckedRegisters
    var configurationTable6050: CheckedRegisters
    /// The chip's mounting, for the magnetometer's scale (a `var`, like `directReads`).
    var mounting: Mounting
    /// The driver reached the running state once. Until then its start-up path logs what it
    /// did itself (at the end of the tick); from then on it hands it on in `notices`, plain
    /// data, so re-initialising a lost sensor on the loop thread builds no text.
    var started = false

    enum Phase: Equatable {
        case reset
        case waiting(until: Int)
        case configure
        case running
        case lost(retryAt: Int)

        var sensorState: SensorState {
            switch self {
            case .running: .running
            case .lost: .lost
            case .reset, .waiting, .configure: .starting
            }
        }
    }

    public init(bus: Bus, settings: MPU9250Settings = .default,
                logger: DriverLog = .silent) {
        self.bus = bus
        self.settings = settings
        self.logger = logger
        self.scale = InertialScale(settings: settings)
        directReads = !settings.useFIFO
        limits = RunningLimits(settings)
        configurationTable = CheckedRegisters(settings.configurationTable(for: .mpu9250))
        configurationTable6050 = CheckedRegisters(settings.configurationTable(for: .mpu6050))
        mounting = settings.mounting
    }

    /// Where the driver stands.
    public var state: SensorState { phase.sensorState }

    /// Advances the state machine by one tick and returns the newest sample, if any; logs
    /// what happened. In FIFO mode use `tick(_:)` to receive every sample.
    @discardableResult
    public mutating func tick() -> SensorSample? {
        var newest: SensorSample? = nil
        tick { newest = $0 }
        return newest
    }

    /// Advances the state machine by one tick, handing each new sample to `deliver`
    /// (once in direct mode, once per FIFO frame in FIFO mode), and logs what happened.
    public mutating func tick(_ deliver: (SensorSample) -> Void) {
        step(deliver)
        logNotices(takeNotices())
    }

    /// The notices since the last call, cleared.
    public mutating func takeNotices() -> SensorNotices {
        let taken = notices
        notices = SensorNotices()
        return taken
    }

    /// Logs `notices` with the driver's logger, each sentence at its level.
    public func logNotices(_ notices: SensorNotices) {
        guard !notices.isEmpty else { return }
        for message in settings.messages(for: notices, bus: bus.path) {
            logger.log(message.level, message.text)
        }
    }

    /// One tick of the state machine; notices are left in `notices`.
    mutating func step(_ deliver: (SensorSample) -> Void) {
        switch phase {
        case .running:
            tickIndex += 1
            counters.ticks += 1
            if settings.useFIFO { readFIFO(deliver) } else { readBurst(deliver) }
        case .reset, .waiting, .configure, .lost:
            restartTick()
        }
    }

    /// One tick while the sensor is not running: reset, wait, configure, or wait to retry
    /// after a loss. Once the driver has started this allocates nothing (`checkedLoopTick`).
    mutating func restartTick() {
        tickIndex += 1
        counters.ticks += 1
        switch phase {
        case .lost(let retryAt):
            guard tickIndex >= retryAt else { return }
            counters.reinitAttempts += 1
            phase = .reset
            startReset()
        case .reset:
            startReset()
        case .waiting(let until):
            if tickIndex >= until { configure() }
        case .configure:
            configure()
        case .running:
            break
        }
    }

    /// Writes H_RESET and schedules the configuration.
    mutating func startReset() {
        do throws(I2CError) {
            try bus.write(address: limits.address, register: MPU9250Register.powerManagement1.rawValue,
                          value: PowerManagement1.deviceReset.rawValue)
            phase = .waiting(until: tickIndex + limits.resetTicks)
        } catch {
            startFailed(StartStep.reset.fault(error))
        }
    }

    /// One 15-byte burst at 0x3A (INT_STATUS, then the 14 data bytes at 0x3B): one I²C
    /// transaction, retried within the tick.
    mutating func readBurst(_ deliver: (SensorSample) -> Void) {
        if let sample = readBurstSample() { deliver(sample) }
    }

    /// The burst as a sample: nil when the read failed, the data is stuck, or the chip made
    /// no new conversion since the last read. INT_STATUS comes in the same transaction as the
    /// data (it sits right before ACCEL_XOUT_H and reading it clears it): its RAW_DATA_RDY
    /// bit says whether the data registers changed since it was last read, for one more byte
    /// on the wire, not another transaction. The magnetometer is read after the burst, when
    /// due, so it never delays the inertial sample.
    mutating func readBurstSample() -> SensorSample? {
        guard let block = readBlock(register: MPU9250Register.interruptStatus.rawValue, count: 15) else { return nil }
        guard nextCheckedRegisterHolds() else { return nil }
        if block.bytes[0] & InterruptStatus.rawDataReady.rawValue == 0 {
            counters.notReady += 1
            readMagnetometerIfDue()
            return nil
        }
        var burst = MPU9250Burst(repeating: 0)
        for index in 0..<14 { burst[index] = block.bytes[index + 1] }
        guard plausible(burst) else { return nil }
        let reading = decodeInertialBurst(burst, scale: scale)
        lastTemperature = reading.temperature
        let sample = finish(reading)
        readMagnetometerIfDue()
        return sample
    }

    /// Re-reads the next configuration register of the round (one small transfer a tick);
    /// false when the read failed or the register changed (read twice alike): a chip that reset itself to its
    /// power-on values (a brown-out) then gives no sample this tick, is reported with the
    /// register, its configured and its read value, and is re-configured like a lost sensor.
    mutating func nextCheckedRegisterHolds() -> Bool {
        guard let entry = checkedRegisters.advance() else { return true }
        guard let block = readBlock(register: entry.register, count: 1) else { return false }
        let found = block.bytes[0]
        guard found & entry.mask != entry.value else { return true }
        // Confirmed by a second read (one more transfer, only now): a chip that reset reads
        // the same again, a bit flipped on the wire does not repeat — a quadrotor must not
        // fail safe over line noise.
        guard let again = readBlock(register: entry.register, count: 1) else { return false }
        guard again.bytes[0] == found else {
            counters.corruptedRegisterReads += 1
            return true
        }
        counters.chipResets += 1
        consecutiveFailures = 0
        var reset = SensorNotices()
        reset.kinds = .chipReset
        reset.register = entry.register
        reset.expected = entry.value
        reset.found = found
        notices.kinds.insert(.chipReset)
        notices.register = entry.register
        notices.expected = entry.value
        notices.found = found
        lossNotices = reset
        phase = .lost(retryAt: tickIndex + limits.reinitTicks)
        return false
    }

    /// Reads into any fixed-size value's bytes (the first `count`, or all) with the retry
    /// policy; false after a failed tick. (Start-up and FIFO reads, which may be longer than
    /// a block; the running tick uses `readBlock`.)
    mutating func read<Buffer>(register: UInt8, into buffer: inout Buffer, count: Int? = nil) -> Bool {
        withUnsafeMutableBytes(of: &buffer) { bytes in
            read(register: register, into: count.map { UnsafeMutableRawBufferPointer(rebasing: bytes[0..<$0]) } ?? bytes)
        }
    }

    /// `count` (≤ 64) bytes from `register` with the retry policy; nil after a failed tick.
    /// The data come back by value (an `I2CBlock`): the running tick's read.
    mutating func readBlock(register: UInt8, count: Int) -> I2CBlock? {
        var block = I2CBlock()
        let length = min(count, 64)
        block.count = length
        let done = withUnsafeMutableBytes(of: &block.bytes) { bytes in
            read(register: register, into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<length]))
        }
        return done ? block : nil
    }

    /// The one retry loop: reads `buffer.count` bytes from `register`, trying again up to
    /// `retries` times; a failed last try fails the tick. False after a failed tick.
    mutating func read(register: UInt8, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var attempt = 0
        while true {
            do throws(I2CError) {
                try bus.writeThenRead(address: limits.address, register: register, into: buffer)
                if attempt > 0 { counters.recoveredByRetry += 1 }
                consecutiveFailures = 0
                return true
            } catch {
                counters.readFailures += 1
                guard attempt < limits.retries else {
                    tickFailed(error.errno)
                    return false
                }
                attempt += 1
            }
        }
    }

    /// Calibration, magnetometer value, counters and the saturation notice.
    mutating func finish(_ reading: InertialReading) -> SensorSample {
        counters.samples += 1
        if reading.saturated {
            counters.saturatedSamples += 1
            if !saturatedEpisode {
                saturatedEpisode = true
                notices.kinds.insert(.saturated)
            }
        } else if saturatedEpisode {
            saturatedEpisode = false
            notices.kinds.insert(.backInRange)
        }
        let fresh = magnetometer?.fresh ?? false
        magnetometer?.fresh = false
        var field: SIMD3<Float>? = nil
        if let raw = magnetometer?.field { field = calibration.correctMagnetometer(raw) }
        return SensorSample(
            accelerometer: calibration.correctAccelerometer(reading.accelerometer),
            gyroscope: calibration.correctGyroscope(reading.gyroscope),
            magnetometer: field,
            magnetometerIsNew: fresh, temperature: reading.temperature, saturated: reading.saturated,
            gyroscopeClipped: reading.gyroscopeClipped)
    }

    /// Stuck-data check: the chip's noise never repeats all 14 bytes for long.
    mutating func plausible(_ burst: MPU9250Burst) -> Bool {
        var same = true
        for i in 0..<14 where burst[i] != previousBurst[i] { same = false; break }
        previousBurst = burst
        identicalReads = same ? identicalReads + 1 : 0
        let limit = limits.stuckLimit
        guard identicalReads >= limit, limit > 0 else { return true }
        counters.stuckData += 1
        identicalReads = 0
        declareLost(.lostStuckData, count: limit, errno: 0)
        return false
    }

    /// A tick whose read failed after all retries, with the kernel's answer.
    mutating func tickFailed(_ errno: Errno) {
        counters.failedTicks += 1
        consecutiveFailures += 1
        notices.errno = errno.rawValue
        if consecutiveFailures >= limits.lostAfterFailures {
            declareLost(.lostAfterFailedReads, count: consecutiveFailures, errno: errno.rawValue)
        } else if consecutiveFailures == 1 {
            notices.kinds.insert(.readFailed)
        }
    }

    /// Reset or configuration failed: stay lost and retry later; a new reason is an error,
    /// the same one again is for debugging.
    mutating func startFailed(_ fault: SensorNotices.StartFault) {
        let repeated = fault == startFault
        phase = .lost(retryAt: tickIndex + limits.reinitTicks)
        startFault = fault
        lossNotices = nil
        notices.events.insert(repeated ? .failedAgain : .unavailable)
        notices.fault = fault
    }

    /// The running path gives up on the sensor: lost, retried every `reinitInterval`.
    mutating func declareLost(_ kind: SensorNotices.Kinds, count: Int, errno: Int32) {
        counters.lost += 1
        consecutiveFailures = 0
        notices.kinds.insert(kind)
        notices.failures = Int32(clamping: count)
        if errno != 0 { notices.errno = errno }
        var loss = SensorNotices()
        loss.kinds = kind
        loss.failures = notices.failures
        loss.errno = notices.errno
        lossNotices = loss
        phase = .lost(retryAt: tickIndex + limits.reinitTicks)
    }
}

/// What the running path reads from `MPU9250Settings`, worked out once at start.
struct RunningLimits: BitwiseCopyable {
    let address: UInt8
    let retries: Int
    let lostAfterFailures: Int
    let stuckLimit: Int
    let reinitTicks: Int
    let magnetometerSilentAfterReads: Int
    /// Start-up: ticks from H_RESET to the configuration, the AK8963's mode, its read interval.
    let resetTicks: Int
    let magnetometerMode: UInt8
    let magnetometerInterval: Int
    let useMagnetometer: Bool

    init(_ settings: MPU9250Settings) {
        address = settings.address
        retries = settings.retries
        lostAfterFailures = settings.lostAfterFailures
        stuckLimit = settings.effectiveStuckLimit
        reinitTicks = settings.ticks(settings.reinitInterval)
        magnetometerSilentAfterReads = settings.magnetometerSilentAfterReads
        resetTicks = settings.ticks(settings.resetDelay)
        magnetometerMode = settings.magnetometerMode.rawValue
        magnetometerInterval = settings.effectiveMagnetometerInterval
        useMagnetometer = settings.magnetometerMode != .powerDown
    }
}

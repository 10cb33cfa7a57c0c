import Logging
import PoiseIO

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
    /// Why the sensor was last declared lost.
    public internal(set) var lostReason: String?
    /// Whether magnetometer data is flowing (false = 6D).
    public var hasMagnetometer: Bool { magnetometer != nil }

    var logger: Logger
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
    var magnetometerWarning: String? = nil

    enum Phase: Equatable {
        case reset
        case waiting(until: Int)
        case configure
        case running
        case lost(retryAt: Int)
    }

    public init(bus: Bus, settings: MPU9250Settings = .default,
                logger: Logger = Logger(label: "poise.sensors.mpu9250")) {
        self.bus = bus
        self.settings = settings
        self.logger = logger
        self.scale = InertialScale(settings: settings)
    }

    /// Where the driver stands.
    public var state: SensorState {
        switch phase {
        case .running: .running
        case .lost: .lost
        default: .starting
        }
    }

    /// Advances the state machine by one tick and returns the newest sample, if any.
    /// In FIFO mode use `tick(_:)` to receive every sample.
    @discardableResult
    public mutating func tick() -> SensorSample? {
        var newest: SensorSample? = nil
        tick { newest = $0 }
        return newest
    }

    /// Advances the state machine by one tick, handing each new sample to `deliver`
    /// (once in direct mode, once per FIFO frame in FIFO mode).
    public mutating func tick(_ deliver: (SensorSample) -> Void) {
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
            if settings.useFIFO { readFIFO(deliver) } else { readBurst(deliver) }
        }
    }

    /// Writes H_RESET and schedules the configuration.
    mutating func startReset() {
        do {
            try bus.write(address: settings.address, register: MPU9250Register.powerManagement1.rawValue,
                          value: PowerManagement1.deviceReset.rawValue)
            phase = .waiting(until: tickIndex + settings.ticks(settings.resetDelay))
        } catch {
            startFailed("reset failed: \(error)")
        }
    }

    /// One 14-byte burst at 0x3B: one I²C transaction, retried within the tick.
    mutating func readBurst(_ deliver: (SensorSample) -> Void) {
        var burst = MPU9250Burst(repeating: 0)
        guard read(register: MPU9250Register.accelXHigh.rawValue, into: &burst) else { return }
        guard plausible(burst) else { return }
        let reading = decodeInertialBurst(burst, scale: scale)
        lastTemperature = reading.temperature
        deliver(finish(reading))
        readMagnetometerIfDue()
    }

    /// Reads into any fixed-size value's bytes with the retry policy; false after a failed tick.
    mutating func read<Buffer>(register: UInt8, into buffer: inout Buffer, count: Int? = nil) -> Bool {
        var attempt = 0
        while true {
            do {
                try withUnsafeMutableBytes(of: &buffer) { (bytes) throws(I2CError) in
                    let part = count.map { UnsafeMutableRawBufferPointer(rebasing: bytes[0..<$0]) } ?? bytes
                    try bus.writeThenRead(address: settings.address, register: register, into: part)
                }
                if attempt > 0 { counters.recoveredByRetry += 1 }
                consecutiveFailures = 0
                return true
            } catch {
                counters.readFailures += 1
                guard attempt < settings.retries else {
                    tickFailed("\(error)")
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
                logger.warning("accel or gyro saturated: motion exceeds ±\(Int(settings.accelerometerRange.g)) g / ±\(Int(settings.gyroscopeRange.degreesPerSecond)) °/s; widen the range")
            }
        } else if saturatedEpisode {
            saturatedEpisode = false
            logger.info("accel and gyro back within range")
        }
        let fresh = magnetometer?.fresh ?? false
        magnetometer?.fresh = false
        var field: SIMD3<Float>? = nil
        if let raw = magnetometer?.field { field = calibration.correctMagnetometer(raw) }
        return SensorSample(
            accelerometer: calibration.correctAccelerometer(reading.accelerometer),
            gyroscope: calibration.correctGyroscope(reading.gyroscope),
            magnetometer: field,
            magnetometerIsNew: fresh, temperature: reading.temperature, saturated: reading.saturated)
    }

    /// Stuck-data check: the chip's noise never repeats all 14 bytes for long.
    mutating func plausible(_ burst: MPU9250Burst) -> Bool {
        var same = true
        for i in 0..<14 where burst[i] != previousBurst[i] { same = false; break }
        previousBurst = burst
        identicalReads = same ? identicalReads + 1 : 0
        let limit = settings.effectiveStuckLimit
        guard identicalReads >= limit, limit > 0 else { return true }
        counters.stuckData += 1
        identicalReads = 0
        declareLost("stuck data: \(limit) identical reads in a row")
        return false
    }

    /// A tick whose read failed after all retries.
    mutating func tickFailed(_ reason: String) {
        counters.failedTicks += 1
        consecutiveFailures += 1
        if consecutiveFailures >= settings.lostAfterFailures {
            declareLost("\(consecutiveFailures) consecutive failed reads; last: \(reason)")
        } else if consecutiveFailures == 1 {
            logger.warning("read failed after \(settings.retries + 1) attempts, retrying next tick: \(reason)")
        }
    }

    /// Reset or configuration failed: stay lost and retry later; log only new reasons.
    mutating func startFailed(_ reason: String) {
        let repeated = reason == lostReason
        phase = .lost(retryAt: tickIndex + settings.ticks(settings.reinitInterval))
        lostReason = reason
        if repeated {
            logger.debug("re-initialisation failed again: \(reason)")
        } else {
            logger.error("sensor unavailable: \(reason); retrying every \(settings.reinitInterval) s")
        }
    }

    mutating func declareLost(_ reason: String) {
        counters.lost += 1
        consecutiveFailures = 0
        lostReason = reason
        phase = .lost(retryAt: tickIndex + settings.ticks(settings.reinitInterval))
        logger.error("sensor lost: \(reason); re-initialising every \(settings.reinitInterval) s")
    }
}

import PoiseDeviceSettings
import PoiseHAL
import PoiseMath
import PoiseMotion
import PoiseSensors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A register-accurate MPU-9250 with its AK8963, behind the same `I2CBus` protocol as the
/// Linux backend: drivers and tests run against it unchanged.
///
/// Time is simulated: call `advance(to:)` before reading. The chip then produces samples at
/// its configured output rate (DLPF and SMPLRT_DIV), low-pass filtered at the configured
/// bandwidth, with noise, bias, scale, cross-axis, temperature drift and quantisation at the
/// configured range; FIFO frames when the FIFO is on; AK8963 measurements at its mode's rate.
/// Faults are injected through `faults`; every transaction is counted in `counters`.
public struct SimulatedMPU9250<Motion: SimulatedMotion>: I2CBus {
    public let path = "sim"
    public var functionality: I2CFunctionality = [
        .plainI2C, .smbusQuick, .smbusReadByte, .smbusReadByteData, .smbusWriteByteData, .smbusReadI2CBlock,
    ]
    /// The MPU's address (0x68, or 0x69 with AD0 high).
    public var address: UInt8
    public var motion: Motion
    /// How the chip sits on the body; the simulator maps body-frame motion into the chip.
    public var mounting: Mounting
    /// The sensor errors the chip adds to the true motion; its `seed` is read at `init`.
    public var errors: SensorErrorModel
    public var faults = SimulatedFaults()
    public internal(set) var counters = SimulatedBusCounters()
    /// Simulated time, s.
    public private(set) var time: Double = 0
    /// How far the chip's own sample clock runs off the board's, a fraction (the datasheet
    /// allows ±1 %): at a fixed tick some conversions come twice in one tick (one is never
    /// read) and some ticks get none. 0: the board's clock exactly.
    public var clockError: Double = 0
    /// Conversions made so far (a sample clock's count, for tests).
    public private(set) var conversions = 0

    @usableFromInline var registers = InlineArray<128, UInt8>(repeating: 0)
    var fifo = InlineArray<512, UInt8>(repeating: 0)
    var fifoStart = 0
    var fifoCount = 0
    var magnetometer: SimulatedAK8963
    var random: DeterministicRandom
    var lastSampleTime: Double = -1
    var filteredForce: SIMD3<Float>? = nil
    var filteredRate: SIMD3<Float>? = nil

    /// - Precondition: the chip can apply every field `errors` sets
    ///   (``SensorErrorModel/fieldsTheChipCannotApply`` is empty).
    public init(motion: Motion, errors: SensorErrorModel = .typical, mounting: Mounting = .identity,
                address: UInt8 = 0x68) {
        precondition(errors.fieldsTheChipCannotApply.isEmpty,
                     "the simulated MPU-9250 cannot apply \(errors.fieldsTheChipCannotApply.joined(separator: ", "))")
        self.motion = motion
        self.errors = errors
        self.mounting = mounting
        self.address = address
        self.random = DeterministicRandom(seed: errors.seed)
        self.magnetometer = SimulatedAK8963(asa: errors.magnetometerASA)
        powerOnReset()
    }

    /// Power-on register values (the datasheet's reset values: everything 0 except PWR_MGMT_1
    /// 0x01 and WHO_AM_I 0x71), as after H_RESET or a brown-out: the configuration is gone, the
    /// FIFO empty, the bypass to the AK8963 closed. Public so tests and fault injection can
    /// rehearse a chip that resets itself mid-run.
    public mutating func powerOnReset() {
        registers = InlineArray(repeating: 0)
        registers[Int(MPU9250Register.powerManagement1.rawValue)] = 0x01
        registers[Int(MPU9250Register.whoAmI.rawValue)] = 0x71
        fifoStart = 0
        fifoCount = 0
        filteredForce = nil
        filteredRate = nil
    }

    @inlinable
    func register(_ r: MPU9250Register) -> UInt8 { registers[Int(r.rawValue)] }

    /// Die temperature, °C.
    public func temperature(at time: Double) -> Float { errors.dieTemperature(at: time) }

    @inlinable
    var gyroBandwidth: UInt8 { register(.config) & 0x07 }
    /// The newest conversion instant at or before board time `time`, s (board time).
    public func newestSampleTime(atOrBefore time: Double) -> Double {
        let rate = outputRate
        guard clockError != 0 else { return (time * rate + 1e-9).rounded(.down) / rate }
        return (time * (1 + clockError) * rate + 1e-9).rounded(.down) / rate / (1 + clockError)
    }

    /// The configured output data rate, Hz. Inlinable: the loop reads it every tick, and a
    /// call from another module would copy the whole chip to pass it.
    @inlinable
    public var outputRate: Double {
        let internalRate: Double = gyroBandwidth == 0 || gyroBandwidth == 7 ? 8000 : 1000
        return internalRate / (1 + Double(register(.sampleRateDivider)))
    }
    var bypassActive: Bool {
        register(.interruptPinConfig) & 0x02 != 0 && register(.userControl) & 0x20 == 0
    }

    /// Runs the chip up to `time` (s); earlier times are ignored.
    public mutating func advance(to newTime: Double) {
        // Simulated time only moves forward, and stays within ~30 years so counts never overflow.
        guard newTime > time, newTime < 1e9 else { return }
        let previous = time
        time = newTime
        let rate = outputRate
        // The chip counts its samples on its own clock: instant k / rate of chip time.
        let chipTime = clockError == 0 ? newTime : newTime * (1 + clockError)
        let last = Int64((chipTime * rate + 1e-9).rounded(.down))
        // Sample instants k / rate after the previous sample (kept as a time, so a change of
        // rate does not confuse the count); only those that can still matter: the FIFO holds
        // at most 36 frames.
        let next = lastSampleTime < 0 ? 0 : Int64((lastSampleTime * rate + 1e-6).rounded(.down)) + 1
        var index = max(next, last - 63)
        while index <= last {
            let instant = Double(index) / rate
            generateSample(at: clockError == 0 ? instant : instant / (1 + clockError), rate: rate)
            lastSampleTime = Double(index) / rate
            index += 1
        }
        var chip = magnetometer
        chip.advance(from: previous, to: newTime, silent: faults.magnetometerSilent) { t in
            measureField(at: t)
        }
        magnetometer = chip
    }

    /// One output sample into the data registers (and the FIFO).
    mutating func generateSample(at t: Double, rate: Double) {
        // Asleep (PWR_MGMT_1 SLEEP): no conversions, the registers keep their last values.
        guard register(.powerManagement1) & PowerManagement1.sleep.rawValue == 0, !faults.stopsConverting else { return }
        conversions += 1
        let truth = motion.state(at: t)
        let temperature = temperature(at: t)
        let warm = temperature - 25
        var force = errors.distort(mounting.bodyToChip(truth.specificForce), scale: errors.accelerometerScale,
                                   bias: SIMD3<Float>(errors.accelerometerBias) + SIMD3<Float>(errors.accelerometerBiasPerDegree) * warm)
        var angularRate = errors.distort(mounting.bodyToChip(truth.angularRate), scale: errors.gyroscopeScale,
                                         bias: SIMD3<Float>(errors.gyroscopeBias) + SIMD3<Float>(errors.gyroscopeBiasPerDegree) * warm)
        // The DLPF as a one-pole low-pass at the configured bandwidth.
        let gyroHz = MPU9250Settings.GyroscopeBandwidth(rawValue: gyroBandwidth)?.hertz ?? 3600
        let accelHz = MPU9250Settings.AccelerometerBandwidth(rawValue: register(.accelConfig2) & 0x07)?.hertz ?? 218.1
        force = lowPass(&filteredForce, force, hertz: accelHz, rate: rate)
        angularRate = lowPass(&filteredRate, angularRate, hertz: gyroHz, rate: rate)
        force += random.nextGaussian3() * Float(errors.accelerometerNoiseDensity) * Float(accelHz.squareRoot())
        angularRate += random.nextGaussian3() * Float(errors.gyroscopeNoiseDensity) * Float(gyroHz.squareRoot())

        let accelLSB = Float(2 << Int(register(.accelConfig) >> 3 & 3)) * Gravity.standard / 32768
        let gyroLSB = Float(250 << Int(register(.gyroConfig) >> 3 & 3)) * (.pi / 180) / 32768
        var frame = InlineArray<14, UInt8>(repeating: 0)
        store(force / accelLSB, into: &frame, at: 0)
        store(SIMD3(repeating: (temperature - 21) * 333.87), into: &frame, at: 6, count: 1)
        store(angularRate / gyroLSB, into: &frame, at: 8)
        if !faults.stuckData {
            for i in 0..<14 { registers[0x3B + i] = frame[i] }
        }
        // RAW_DATA_RDY is raised once per conversion (while INT_ENABLE's RAW_RDY_EN is set) and
        // cleared by reading INT_STATUS: a read sees it exactly when a conversion came since
        // the last read, at the output rate. (Stuck data models a converter whose values stop
        // changing, so it still raises it; SLEEP makes no conversions and raises nothing.)
        if register(.interruptEnable) & InterruptStatus.rawDataReady.rawValue != 0 {
            registers[Int(MPU9250Register.interruptStatus.rawValue)] |= InterruptStatus.rawDataReady.rawValue
        }
        if register(.userControl) & UserControl.fifoEnable.rawValue != 0 { pushFIFO(frame) }
    }

    func lowPass(_ state: inout SIMD3<Float>?, _ input: SIMD3<Float>, hertz: Double, rate: Double) -> SIMD3<Float> {
        let alpha = Float(1 - exp(-2 * Double.pi * hertz / rate))
        let output = state.map { $0 + alpha * (input - $0) } ?? input
        state = output
        return output
    }

    /// Rounds and saturates to big-endian Int16.
    func store(_ values: SIMD3<Float>, into frame: inout InlineArray<14, UInt8>, at offset: Int, count: Int = 3) {
        for axis in 0..<count {
            let raw = Int16(max(-32768, min(32767, values[axis].rounded())))
            let bits = UInt16(bitPattern: raw)
            frame[offset + 2 * axis] = UInt8(bits >> 8)
            frame[offset + 2 * axis + 1] = UInt8(bits & 0xFF)
        }
    }

    /// Appends the enabled parts of a frame in register order; when full, the oldest bytes
    /// are overwritten and FIFO_OFLOW is raised (CONFIG FIFO_MODE = 0).
    mutating func pushFIFO(_ frame: InlineArray<14, UInt8>) {
        let enabled = register(.fifoEnable)
        // FIFO_EN bit per byte of the frame: accel (bit 3), temperature (7), gyro x y z (6 5 4).
        for i in 0..<14 {
            let bit: UInt8 = i < 6 ? 3 : i < 8 ? 7 : 6 - UInt8((i - 8) / 2)
            if enabled & (1 << bit) != 0 { pushFIFOByte(frame[i]) }
        }
    }

    mutating func pushFIFOByte(_ byte: UInt8) {
        if fifoCount == 512 {
            fifoStart = (fifoStart + 1) % 512
            fifoCount -= 1
            registers[Int(MPU9250Register.interruptStatus.rawValue)] |= InterruptStatus.fifoOverflow.rawValue
        }
        fifo[(fifoStart + fifoCount) % 512] = byte
        fifoCount += 1
    }

    mutating func popFIFOByte() -> UInt8 {
        guard fifoCount > 0 else { return 0 }
        let byte = fifo[fifoStart]
        fifoStart = (fifoStart + 1) % 512
        fifoCount -= 1
        return byte
    }

    /// The field the AK8963 sees at `t`, µT, in its own axes, with iron, noise and errors.
    mutating func measureField(at t: Double) -> SIMD3<Float> {
        let body = errors.ironDistort(motion.state(at: t).magneticField)
        let chip = mounting.bodyToChip(body) + random.nextGaussian3() * Float(errors.magnetometerNoise)
        return SIMD3(chip.y, chip.x, -chip.z)
    }
}

/// What crossed the simulated bus.
public struct SimulatedBusCounters: Sendable, Equatable {
    /// Every transaction (read or write, any address, failed or not).
    public var transactions = 0
    public var reads = 0
    public var writes = 0
    /// Transactions that were not acknowledged or ended early.
    public var failures = 0
    /// Accelerometer/temperature/gyroscope bursts: 14 bytes at 0x3B, or 15 at 0x3A.
    public var burstReads = 0
    /// Reads at the AK8963's address.
    public var magnetometerReads = 0
    /// Reads of FIFO_R_W.
    public var fifoReads = 0

    public init() {}
}

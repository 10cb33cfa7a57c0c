import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath
import PoiseMotion
@testable import PoiseSensors
import PoiseSimulation
import Testing

/// Ticks until the driver runs (reset wait = 0.1 s = 10 ticks at 100 Hz).
func started<M>(_ driver: inout MPU9250<SimulatedMPU9250<M>>, clock: inout Int) {
    run(&driver, ticks: 12, from: &clock)
}

@Test func staticBoardReadsGravityRateAndField() {
    var driver = simulatedDriver(StaticPose())
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.state == .running)
    #expect(driver.model == .mpu9250)
    #expect(driver.hasMagnetometer)
    let samples = run(&driver, ticks: 20, from: &clock)
    #expect(samples.count == 20)
    let last = samples.last!
    // Quantisation: ±8 g → 2.4 mm/s² per LSB; ±2000 °/s → 1.1 mrad/s per LSB; 0.15 µT.
    #expect(close(last.accelerometer, SIMD3(0, 0, Gravity.standard), 0.003))
    #expect(close(last.gyroscope, .zero, 0.001))
    #expect(close(last.magnetometer ?? .zero, typicalGeomagneticField, 0.2))
    #expect(abs(last.temperature - 30) < 0.01)
}

/// One burst and one re-read configuration register (the checked registers) per tick.
@Test func oneTransactionPerTickForTheBurstAndOneForTheCheckedRegister() {
    var settings = testSettings()
    settings.magnetometerInterval = 4
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    for _ in 0..<20 {
        let before = driver.bus.counters
        run(&driver, ticks: 1, from: &clock)
        let after = driver.bus.counters
        let magnetometerDue = clock % 4 == 0
        #expect(after.burstReads - before.burstReads == 1)
        #expect(after.transactions - before.transactions == (magnetometerDue ? 3 : 2))
    }
}

@Test func rotatedMountingIsUndoneByTheSameSetting() throws {
    let mounting = try Mounting("+y-x+z")
    let attitude = Quaternion(axis: SIMD3(1, 0, 0), angle: 0.5)
    let motion = ConstantRotation(axis: SIMD3(0.3, -0.5, 0.8), rate: 1.0, initialAttitude: attitude)
    let settings = testSettings { $0.mounting = mounting }
    var driver = simulatedDriver(motion, chipMounting: mounting, settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    let sample = run(&driver, ticks: 1, from: &clock)[0]
    let truth = motion.state(at: Double(clock) / 100)
    #expect(close(sample.gyroscope, truth.angularRate, 0.003))
    // The DLPF lags a rotating gravity vector slightly; 2 cm/s² covers it at 1 rad/s.
    #expect(close(sample.accelerometer, truth.specificForce, 0.05))
}

@Test func configuredRangesAndRatesReachTheChip() {
    let settings = testSettings {
        $0.accelerometerRange = .g2
        $0.gyroscopeRange = .dps250
        $0.sampleRateDivider = 9
    }
    var driver = simulatedDriver(ConstantRotation(axis: SIMD3(0, 0, 1), rate: 6), settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.bus.outputRate == 100)
    let sample = run(&driver, ticks: 1, from: &clock)[0]
    // 6 rad/s = 344 °/s: beyond ±250 °/s.
    #expect(sample.saturated)
    #expect(driver.counters.saturatedSamples >= 1)
    #expect(abs(sample.gyroscope.z - 250 * .pi / 180) < 0.01)
}

@Test func mpu6500RunsSixD() {
    var faults = SimulatedFaults()
    faults.whoAmI = 0x70
    var driver = simulatedDriver(StaticPose(), faults: faults)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.state == .running)
    #expect(driver.model == .mpu6500)
    #expect(!driver.hasMagnetometer)
    #expect(run(&driver, ticks: 1, from: &clock)[0].magnetometer == nil)
    #expect(driver.bus.counters.magnetometerReads == 0)
}

@Test func unknownChipIsNotUsed() {
    var faults = SimulatedFaults()
    faults.whoAmI = 0x42
    var driver = simulatedDriver(StaticPose(), faults: faults)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.state == .lost)
    #expect(driver.fault == .whoAmI(0x42, address: 0x68))
    #expect(driver.lostReason == "the chip at 0x68 answered WHO_AM_I 0x42, not an MPU-9250 (0x71) or a relative")
}

@Test func missingMagnetometerDegradesToSixD() {
    var faults = SimulatedFaults()
    faults.magnetometerAbsent = true
    var driver = simulatedDriver(StaticPose(), faults: faults)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.state == .running)
    #expect(!driver.hasMagnetometer)
    guard case .noAnswer(let error) = driver.magnetometerFault else {
        Issue.record("expected no answer from the AK8963, got \(String(describing: driver.magnetometerFault))")
        return
    }
    #expect(error.address == AK8963.address)
    #expect(error.errno == .remoteIO)
}

@Test func silentMagnetometerDegradesAfterItsLimit() {
    var faults = SimulatedFaults()
    faults.magnetometerSilent = true
    let settings = testSettings { $0.magnetometerSilentAfterReads = 5; $0.magnetometerInterval = 1 }
    var driver = simulatedDriver(StaticPose(), settings: settings, faults: faults)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.hasMagnetometer)
    run(&driver, ticks: 10, from: &clock)
    #expect(!driver.hasMagnetometer)
    #expect(driver.counters.magnetometerNotReady == 5)
    #expect(driver.magnetometerFault == .silent(reads: 5))
    #expect(driver.state == .running)
}

@Test func aFailedReadIsRetriedWithinTheTick() {
    var driver = simulatedDriver(StaticPose())
    var clock = 0
    started(&driver, clock: &clock)
    driver.bus.faults.failNextTransactions = 1
    let samples = run(&driver, ticks: 1, from: &clock)
    #expect(samples.count == 1)
    #expect(driver.counters.readFailures == 1)
    #expect(driver.counters.recoveredByRetry == 1)
    #expect(driver.counters.failedTicks == 0)
}

@Test func persistentNACKLosesTheSensorThenItRecovers() {
    let settings = testSettings { $0.lostAfterFailures = 3; $0.reinitInterval = 0.5 }
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    driver.bus.faults.nack = true
    run(&driver, ticks: 2, from: &clock)
    #expect(driver.state == .running)
    run(&driver, ticks: 1, from: &clock)
    #expect(driver.state == .lost)
    #expect(driver.fault == .failedReads(count: 3, errno: .remoteIO))
    #expect(driver.counters.failedTicks == 3)
    #expect(driver.counters.lost == 1)
    // While unplugged, re-initialisation is attempted every 0.5 s (50 ticks), never more.
    run(&driver, ticks: 120, from: &clock)
    #expect(driver.counters.reinitAttempts == 2)
    #expect(driver.state == .lost)
    driver.bus.faults.nack = false
    run(&driver, ticks: 80, from: &clock)
    #expect(driver.state == .running)
    #expect(driver.counters.reinitSuccesses == 1)
    #expect(driver.lostReason == nil)
}

@Test func stuckDataIsDetected() {
    let settings = testSettings { $0.stuckAfterIdenticalReads = 10 }
    var driver = simulatedDriver(StaticPose(), errors: .typical, settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    run(&driver, ticks: 30, from: &clock)
    #expect(driver.state == .running)
    driver.bus.faults.stuckData = true
    run(&driver, ticks: 12, from: &clock)
    #expect(driver.state == .lost)
    #expect(driver.counters.stuckData == 1)
    #expect(driver.fault == .stuckData(count: 10))
}

@Test func bitFlipsAndShortReadsNeverCrash() {
    var driver = simulatedDriver(StaticPose(), errors: .typical)
    var clock = 0
    started(&driver, clock: &clock)
    driver.bus.faults.bitFlipProbability = 0.5
    let flipped = run(&driver, ticks: 100, from: &clock)
    // A flip may clear the data-ready bit of INT_STATUS (one of the burst's 120 bits): that
    // tick then has no sample, which is what the chip would have said. A flipped checked
    // register is read again; only the same wrong value twice (rare even at this rate) counts
    // as a chip reset, which then costs the re-initialisation interval's samples.
    #expect(driver.counters.corruptedRegisterReads > 0)
    #expect(flipped.count >= 95 - 100 * driver.counters.chipResets)
    #expect(flipped.allSatisfy { $0.accelerometer.x.isFinite })
    driver.bus.faults.bitFlipProbability = 0
    run(&driver, ticks: 150, from: &clock)
    #expect(driver.state == .running)
    driver.bus.faults.shortRead = true
    run(&driver, ticks: 10, from: &clock)
    #expect(driver.state == .lost)
    #expect(driver.fault == .failedReads(count: driver.settings.lostAfterFailures, errno: .ioError))
}

@Test func fifoDeliversEverySampleAboveTheTickRate() {
    let settings = testSettings { $0.useFIFO = true }
    var driver = simulatedDriver(StaticPose(), errors: .typical, settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.state == .running)
    run(&driver, ticks: 2, from: &clock)
    let samples = run(&driver, ticks: 50, from: &clock)
    // 1 kHz output, 100 Hz ticks: 10 frames per tick.
    #expect(samples.count == 500)
    #expect(driver.counters.fifoOverflows == 0 && driver.counters.fifoMisaligned == 0)
    // Typical errors: bias, scale and cross-axis coupling of gravity (see SensorErrorModel.typical).
    let g: Float = 9.80665
    let expected = SIMD3<Float>(0.08 - 0.001 * g, -0.12 + 0.0015 * g, 1.02 * g + 0.2)
    let mean = samples.reduce(SIMD3<Float>.zero) { $0 + $1.accelerometer } / Float(samples.count)
    #expect(close(mean, expected, 0.01))
}

@Test func fifoOverflowIsDetectedAndRecovered() {
    let settings = testSettings { $0.useFIFO = true }
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    // Stall the loop for 1 s: 1000 frames arrive, the FIFO holds 36.
    clock += 100
    run(&driver, ticks: 1, from: &clock)
    #expect(driver.counters.fifoOverflows == 1)
    let samples = run(&driver, ticks: 10, from: &clock)
    #expect(samples.count >= 90)
    #expect(driver.counters.fifoOverflows == 1)
    #expect(driver.state == .running)
}

@Test func fifoReadsAreCappedPerTick() {
    let settings = testSettings(tickRate: 50) { $0.useFIFO = true; $0.maxFramesPerRead = 8 }
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    run(&driver, ticks: 7, from: &clock)
    #expect(driver.state == .running)
    var frames: [Int] = []
    for _ in 0..<3 { frames.append(run(&driver, ticks: 1, from: &clock).count) }
    #expect(frames.allSatisfy { $0 <= 8 })
    #expect(driver.counters.fifoCapped >= 1)
}

@Test func injectedFIFOOverflowFlagResetsTheFIFO() {
    let settings = testSettings { $0.useFIFO = true }
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    driver.bus.faults.fifoOverflow = true
    run(&driver, ticks: 1, from: &clock)
    #expect(driver.counters.fifoOverflows == 1)
    #expect(run(&driver, ticks: 1, from: &clock).count == 10)
}

@Test func slowOutputRateIsNotMistakenForStuckData() {
    let settings = testSettings {
        $0.stuckAfterIdenticalReads = 5
        $0.sampleRateDivider = 99  // 10 Hz output, 100 Hz ticks: each sample is read 10 times
    }
    var driver = simulatedDriver(StaticPose(), errors: .typical, settings: settings)
    var clock = 0
    started(&driver, clock: &clock)
    run(&driver, ticks: 300, from: &clock)
    #expect(driver.state == .running)
    #expect(driver.counters.stuckData == 0)
}

@Test func settingsProblemsAreNamed() {
    #expect(MPU9250Settings.default.problems.isEmpty)
    var settings = MPU9250Settings()
    settings.maxFramesPerRead = 40
    settings.address = 0x50
    settings.tickRate = 100
    #expect(settings.problems == [
        "maxFramesPerRead 40 must lie in 1…32",
        "address 0x50 is not an MPU-9250 address (0x68 or 0x69)",
    ])
}

@Test func absurdSettingsDoNotTrap() {
    var settings = testSettings()
    settings.tickRate = .infinity
    settings.reinitInterval = .nan
    #expect(!settings.problems.isEmpty)
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    for _ in 0..<5 { clock += 1; driver.tick(at: Double(clock) / 100) }
    driver.bus.advance(to: .infinity)
    driver.bus.advance(to: 1e300)
    #expect(driver.counters.ticks == 5)
}

@Test func mpu6050SkipsAccelConfig2AndUsesItsTemperatureFormula() {
    #expect(!MPU9250Settings.default.configurationTable(for: .mpu6050).contains { $0.register == .accelConfig2 })
    var faults = SimulatedFaults()
    faults.whoAmI = 0x68
    var errors = SensorErrorModel.ideal
    errors.temperature = 21  // raw 0
    var driver = simulatedDriver(StaticPose(), errors: errors, faults: faults)
    var clock = 0
    started(&driver, clock: &clock)
    #expect(driver.model == .mpu6050)
    #expect(!driver.hasMagnetometer)
    #expect(abs((run(&driver, ticks: 1, from: &clock).first?.temperature ?? 0) - 36.53) < 0.01)
}

@Test func simulatedIMUFactoryRunsAtTheMountingGiven() throws {
    var settings = MPU9250Settings.default
    settings.mounting = try Mounting("-x-y+z")
    settings.tickRate = 100
    var imu = makeSimulatedIMU(motion: ConstantRotation(axis: SIMD3(0, 0, 1), rate: 0.5), errors: .ideal,
                               settings: settings, logger: quiet)
    var sample: SensorSample?
    for tick in 1...20 { sample = imu.tick(at: Double(tick) / 100) ?? sample }
    #expect(close(sample?.gyroscope ?? .zero, SIMD3(0, 0, 0.5), 0.002))
}

/// A sample is new only when the chip converted since the last read: a chip at 40 Hz under
/// a 1 kHz loop gives 40 samples a second, not the same one 25 times as new.
@Test func aChipSlowerThanTheLoopGivesOnlyItsNewSamples() {
    let settings = testSettings(tickRate: 1000) { $0.sampleRateDivider = 24 }   // 1 kHz / 25 = 40 Hz
    var driver = simulatedDriver(StaticPose(), settings: settings)
    var clock = 0
    run(&driver, ticks: 120, from: &clock)   // reset wait and configuration
    #expect(driver.state == .running)
    #expect(driver.bus.outputRate == 40)
    let before = driver.counters
    let samples = run(&driver, ticks: 1000, from: &clock)
    #expect(samples.count == 40)
    #expect(driver.counters.notReady - before.notReady == 960)
    #expect(driver.counters.failedTicks == before.failedTicks)
    #expect(driver.state == .running)
}

/// INT_STATUS comes in the same transaction as the data: still one burst per tick (and the
/// checked register's small read).
@Test func theDataReadyStatusCostsNoExtraTransaction() {
    var driver = simulatedDriver(StaticPose(), settings: testSettings { $0.magnetometerMode = .powerDown })
    var clock = 0
    started(&driver, clock: &clock)
    let before = driver.bus.counters
    #expect(run(&driver, ticks: 10, from: &clock).count == 10)
    #expect(driver.bus.counters.transactions - before.transactions == 20)
    #expect(driver.bus.counters.burstReads - before.burstReads == 10)
}

/// A chip that stops converting (asleep) delivers nothing new from the next tick on — the
/// loop's sensor timeout then counts from its last new sample — and it is not a failed read.
@Test func aChipThatStopsConvertingDeliversNoSample() throws {
    var driver = simulatedDriver(StaticPose())
    var clock = 0
    started(&driver, clock: &clock)
    #expect(run(&driver, ticks: 5, from: &clock).count == 5)
    try driver.bus.write(address: 0x68, register: MPU9250Register.powerManagement1.rawValue,
                         value: PowerManagement1.sleep.rawValue | PowerManagement1.clockAutoPLL.rawValue)
    #expect(run(&driver, ticks: 100, from: &clock).isEmpty)
    #expect(driver.counters.failedTicks == 0)
}

import PoiseOutputs
import PoiseSimulation
import Testing

/// The simulated PCA9685 on a bus with the simulated MPU-9250.
typealias SimBus = SimulatedI2CBus<StaticPose>

func simulatedBus() -> SimBus {
    SimBus(imu: SimulatedMPU9250(motion: StaticPose(), errors: .ideal), pca9685: SimulatedPCA9685())
}

@Test(arguments: [(50.0, UInt8(121)), (400.0, UInt8(14)), (24.0, UInt8(253)), (1526.0, UInt8(3)), (5000.0, UInt8(3))])
func preScaleFollowsTheDataSheetFormula(frequency: Double, expected: UInt8) {
    #expect(PCA9685.preScale(frequencyHz: frequency) == expected)
}

@Test func configureSleepsSetsThePrescalerAndRestarts() throws {
    var bus = simulatedBus()
    let chip = PCA9685(settings: PCA9685.Settings(frequencyHz: 50))
    var waited = 0
    try chip.configure(bus: &bus, wait: { waited += $0 })
    let sim = try #require(bus.pca9685)
    #expect(sim.register(PCA9685Register.preScale.rawValue) == 121)
    #expect(sim.counters.ignoredPreScaleWrites == 0)
    let mode1 = PCA9685Mode1(rawValue: sim.register(0))
    #expect(mode1.contains(.autoIncrement) && !mode1.contains(.sleep) && !mode1.contains(.restart))
    #expect(waited == PCA9685Timing.wakeMicroseconds)
    #expect((0..<16).allSatisfy { sim.pulseWidthNanoseconds(channel: $0) == 0 }, "every channel starts off")
}

@Test func preScaleWrittenWhileAwakeIsIgnoredByTheChip() throws {
    var bus = simulatedBus()
    try bus.write(address: 0x40, register: PCA9685Register.mode1.rawValue, value: 0x20)  // awake
    try bus.write(address: 0x40, register: PCA9685Register.preScale.rawValue, value: 50)
    #expect(bus.pca9685?.register(PCA9685Register.preScale.rawValue) == 0x1E)
    #expect(bus.pca9685?.counters.ignoredPreScaleWrites == 1)
}

@Test(arguments: [(50.0, 1000.0, UInt16(205)), (50.0, 2000.0, UInt16(410)), (400.0, 1000.0, UInt16(1667)), (400.0, 2000.0, UInt16(3333))])
func pulsesBecomeCounts(frequency: Double, microseconds: Double, counts: UInt16) throws {
    let chip = PCA9685(settings: PCA9685.Settings(frequencyHz: frequency))
    #expect(chip.counts(highTimeNanoseconds: UInt32(microseconds * 1000)) == counts)
    var bus = simulatedBus()
    try chip.configure(bus: &bus, wait: { _ in })
    var values = InlineArray<16, UInt16>(repeating: 0)
    values[3] = counts
    #expect(chip.write(counts: values, first: 3, last: 3, bus: &bus) == nil)
    let width = try #require(bus.pca9685).pulseWidthNanoseconds(channel: 3)
    // Within one count of the requested pulse (a count is 4.9 µs at 50 Hz, 0.6 µs at 400 Hz).
    #expect(abs(width - microseconds * 1000) <= chip.periodNanoseconds / 4096)
}

@Test func fullOnAndFullOffUseTheirBits() throws {
    let chip = PCA9685(settings: PCA9685.Settings(frequencyHz: 200))
    var bus = simulatedBus()
    try chip.configure(bus: &bus, wait: { _ in })
    var values = InlineArray<16, UInt16>(repeating: 0)
    values[0] = 4096
    values[1] = 0
    values[2] = 100
    #expect(chip.write(counts: values, first: 0, last: 2, bus: &bus) == nil)
    let sim = try #require(bus.pca9685)
    #expect(sim.pulseWidthNanoseconds(channel: 0) == chip.periodNanoseconds)
    #expect(sim.pulseWidthNanoseconds(channel: 1) == 0)
    #expect(sim.register(PCA9685Timing.register(channel: 1) + 3) == PCA9685Timing.fullBit)
    #expect(abs(sim.pulseWidthNanoseconds(channel: 2) - chip.highTimeNanoseconds(counts: 100)) < 1e-6)
}

@Test func allLEDOffTurnsEveryChannelOff() throws {
    let chip = PCA9685(settings: PCA9685.Settings(frequencyHz: 50))
    var bus = simulatedBus()
    try chip.configure(bus: &bus, wait: { _ in })
    let values = InlineArray<16, UInt16>(repeating: 300)
    #expect(chip.write(counts: values, first: 0, last: 15, bus: &bus) == nil)
    #expect(bus.pca9685!.pulseWidthNanoseconds(channel: 9) > 0)
    try chip.allOff(bus: &bus)
    #expect((0..<16).allSatisfy { bus.pca9685!.pulseWidthNanoseconds(channel: $0) == 0 })
}

@Test func sleepingWithOutputsOnNeedsARestart() throws {
    let chip = PCA9685(settings: PCA9685.Settings(frequencyHz: 50))
    var bus = simulatedBus()
    try chip.configure(bus: &bus, wait: { _ in })
    var values = InlineArray<16, UInt16>(repeating: 0)
    values[0] = 300
    _ = chip.write(counts: values, first: 0, last: 0, bus: &bus)
    try bus.write(address: 0x40, register: 0, value: 0x30)  // sleep, AI
    #expect(bus.pca9685!.pulseWidthNanoseconds(channel: 0) == 0)
    try bus.write(address: 0x40, register: 0, value: 0x20)  // wake: RESTART reads 1, outputs still off
    #expect(PCA9685Mode1(rawValue: bus.pca9685!.register(0)).contains(.restart))
    #expect(bus.pca9685!.pulseWidthNanoseconds(channel: 0) == 0)
    try bus.write(address: 0x40, register: 0, value: 0xA0)  // RESTART
    #expect(bus.pca9685!.pulseWidthNanoseconds(channel: 0) > 0)
}

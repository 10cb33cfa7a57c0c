import PoiseHAL
@testable import PoiseSensors
import PoiseSimulation
import Testing
import PoiseMath
import PoiseMotion
import PoiseLogging

typealias Chip = SimulatedMPU9250<StaticPose>

func readBytes(_ chip: inout Chip, _ address: UInt8, _ register: UInt8, _ count: Int) throws -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
    try chip.writeThenRead(address: address, register: register, into: buffer)
    return Array(buffer)
}

@Test func powerOnValuesAndReset() throws {
    var chip = Chip(motion: StaticPose(), errors: .ideal)
    #expect(try chip.readRegister(address: 0x68, register: 0x75) == 0x71)
    #expect(try chip.readRegister(address: 0x68, register: 0x6B) == 0x01)
    try chip.write(address: 0x68, register: 0x1C, value: 0x18)
    #expect(try chip.readRegister(address: 0x68, register: 0x1C) == 0x18)
    try chip.write(address: 0x68, register: 0x6B, value: 0x80)
    #expect(try chip.readRegister(address: 0x68, register: 0x1C) == 0x00)
    #expect(try chip.readRegister(address: 0x68, register: 0x6B) == 0x01)
    // Data and identity registers are read-only.
    try chip.write(address: 0x68, register: 0x75, value: 0x00)
    #expect(try chip.readRegister(address: 0x68, register: 0x75) == 0x71)
}

@Test func unknownAddressesAreNotAcknowledged() throws {
    var chip = Chip(motion: StaticPose())
    let error = #expect(throws: I2CError.self) { _ = try readBytes(&chip, 0x50, 0x00, 1) }
    #expect(error?.errno == .remoteIO)
    #expect(chip.probe(address: 0x68) == .present)
    #expect(chip.probe(address: 0x0C) == .absent)  // bypass is off at power-on
    try chip.write(address: 0x68, register: 0x37, value: 0x02)
    #expect(chip.probe(address: 0x0C) == .present)
    chip.faults.nack = true
    #expect(chip.probe(address: 0x68) == .absent)
}

@Test func rangeSettingChangesQuantisation() throws {
    var chip = Chip(motion: StaticPose(), errors: .ideal)
    chip.advance(to: 0.01)
    var z = try readBytes(&chip, 0x68, 0x3F, 2)
    #expect(Int16(bitPattern: UInt16(z[0]) << 8 | UInt16(z[1])) == 16384)  // ±2 g: 1 g = 16384
    try chip.write(address: 0x68, register: 0x1C, value: 3 << 3)         // ±16 g
    chip.advance(to: 0.02)
    z = try readBytes(&chip, 0x68, 0x3F, 2)
    #expect(Int16(bitPattern: UInt16(z[0]) << 8 | UInt16(z[1])) == 2048)
}

@Test func temperatureDriftMovesTheReadingAndTheBias() throws {
    var errors = SensorErrorModel.ideal
    errors.temperature = 25
    errors.temperatureRate = 1  // °C/s
    errors.gyroscopeBiasPerDegree = SIMD3(0.001, 0, 0)
    var driver = MPU9250(bus: Chip(motion: StaticPose(), errors: errors), settings: testSettings(), logger: DriverLog(quiet))
    var clock = 0
    started(&driver, clock: &clock)
    let early = run(&driver, ticks: 1, from: &clock)[0]
    run(&driver, ticks: 998, from: &clock)
    let late = run(&driver, ticks: 1, from: &clock)[0]
    #expect(abs((late.temperature - early.temperature) - 9.99) < 0.02)
    #expect(abs((late.gyroscope.x - early.gyroscope.x) - 0.00999) < 0.0015)
}

@Test func noiseIsSeededAndDeterministic() {
    func firstSamples(seed: UInt64) -> [SIMD3<Float>] {
        var errors = SensorErrorModel.typical
        errors.seed = seed
        var driver = MPU9250(bus: Chip(motion: StaticPose(), errors: errors), settings: testSettings(), logger: DriverLog(quiet))
        var clock = 0
        return run(&driver, ticks: 20, from: &clock).map(\.gyroscope)
    }
    #expect(firstSamples(seed: 5) == firstSamples(seed: 5))
    #expect(firstSamples(seed: 5) != firstSamples(seed: 6))
}

@Test func magnetometerFuseROMModesAndDataRelease() throws {
    var chip = Chip(motion: StaticPose(), errors: .typical)
    try chip.write(address: 0x68, register: 0x37, value: 0x02)
    #expect(try chip.readRegister(address: 0x0C, register: 0x00) == 0x48)
    #expect(try readBytes(&chip, 0x0C, 0x10, 3) == [0, 0, 0])  // ASA only in fuse-ROM mode
    try chip.write(address: 0x0C, register: 0x0A, value: 0x0F)
    #expect(try readBytes(&chip, 0x0C, 0x10, 3) == [0xB0, 0xB3, 0xA7])
    try chip.write(address: 0x0C, register: 0x0A, value: 0x00)
    try chip.write(address: 0x0C, register: 0x0A, value: 0x16)  // continuous 100 Hz, 16-bit
    chip.advance(to: 0.005)
    #expect(try chip.readRegister(address: 0x0C, register: 0x02) & 0x01 == 0)
    chip.advance(to: 0.011)
    var read = try readBytes(&chip, 0x0C, 0x02, 8)
    #expect(read[0] & 0x01 == 1)
    #expect(read[7] == 0x10)  // BITM, no overflow
    // ST2 was read: DRDY clears until the next measurement.
    read = try readBytes(&chip, 0x0C, 0x02, 1)
    #expect(read[0] == 0)
    // A read that stops before ST2 holds the data: the next measurement is skipped (DOR).
    chip.advance(to: 0.021)
    _ = try readBytes(&chip, 0x0C, 0x02, 7)
    chip.advance(to: 0.031)
    #expect(try chip.readRegister(address: 0x0C, register: 0x02) & 0x02 == 0x02)
}

@Test func magnetometerOverflowSetsHOFL() throws {
    var chip = Chip(motion: StaticPose(magneticField: SIMD3(0, 0, -6000)), errors: .ideal)
    try chip.write(address: 0x68, register: 0x37, value: 0x02)
    try chip.write(address: 0x0C, register: 0x0A, value: 0x16)
    chip.advance(to: 0.02)
    #expect(try readBytes(&chip, 0x0C, 0x02, 8)[7] & 0x08 == 0x08)
}

@Test func fifoCountsFramesAndInterruptStatusClearsOnRead() throws {
    var chip = Chip(motion: StaticPose(), errors: .ideal)
    try chip.write(address: 0x68, register: 0x1A, value: 0x01)  // DLPF on: 1 kHz (power-on is 8 kHz)
    try chip.write(address: 0x68, register: 0x23, value: FIFOEnable.inertialFrame.rawValue)
    try chip.write(address: 0x68, register: 0x6A, value: 0x40)
    try chip.write(address: 0x68, register: 0x38, value: 0x01)  // RAW_RDY_EN: data-ready in INT_STATUS
    chip.advance(to: 0.0095)  // frames at 0, 1, …, 9 ms
    var count = try readBytes(&chip, 0x68, 0x72, 2)
    #expect(Int(count[0]) << 8 | Int(count[1]) == 140)
    _ = try readBytes(&chip, 0x68, 0x74, 28)
    count = try readBytes(&chip, 0x68, 0x72, 2)
    #expect(Int(count[0]) << 8 | Int(count[1]) == 112)
    #expect(try chip.readRegister(address: 0x68, register: 0x3A) & 0x01 == 0x01)
    #expect(try chip.readRegister(address: 0x68, register: 0x3A) == 0)
    chip.advance(to: 0.1)
    #expect(try chip.readRegister(address: 0x68, register: 0x3A) & 0x10 == 0x10)  // overflowed
    try chip.write(address: 0x68, register: 0x6A, value: 0x44)  // FIFO_RST
    count = try readBytes(&chip, 0x68, 0x72, 2)
    #expect(count == [0, 0])
    #expect(try chip.readRegister(address: 0x68, register: 0x6A) == 0x40)  // reset bit self-clears
}

@Test func sleepingChipStopsConverting() throws {
    var chip = Chip(motion: StaticPose(), errors: .typical)
    chip.advance(to: 0.01)
    try chip.write(address: 0x68, register: 0x6B, value: 0x41)  // SLEEP
    let before = try readBytes(&chip, 0x68, 0x3B, 14)
    chip.advance(to: 0.05)
    #expect(try readBytes(&chip, 0x68, 0x3B, 14) == before)
    try chip.write(address: 0x68, register: 0x6B, value: 0x01)
    chip.advance(to: 0.06)
    #expect(try readBytes(&chip, 0x68, 0x3B, 14) != before)
}

/// RAW_DATA_RDY follows the conversions: raised once per sample while RAW_RDY_EN is set,
/// cleared by reading INT_STATUS, never raised while it is off or the chip sleeps.
@Test func dataReadyFollowsTheOutputRate() throws {
    var chip = Chip(motion: StaticPose(), errors: .ideal)
    try chip.write(address: 0x68, register: 0x1A, value: 0x01)  // 1 kHz
    try chip.write(address: 0x68, register: 0x19, value: 9)     // / 10: 100 Hz
    chip.advance(to: 0.0205)
    #expect(try chip.readRegister(address: 0x68, register: 0x3A) & 0x01 == 0)   // not enabled
    try chip.write(address: 0x68, register: 0x38, value: 0x01)
    var ready = 0
    for step in 1...1000 {   // 1 s in 1 ms steps
        chip.advance(to: 0.0205 + Double(step) * 0.001)
        if try chip.readRegister(address: 0x68, register: 0x3A) & 0x01 != 0 { ready += 1 }
    }
    #expect(ready == 100)
    try chip.write(address: 0x68, register: 0x6B, value: 0x41)  // SLEEP
    chip.advance(to: 1.5)
    #expect(try chip.readRegister(address: 0x68, register: 0x3A) & 0x01 == 0)
}

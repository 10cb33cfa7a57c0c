import PoiseDeviceSettings
import PoiseMath
import PoiseSensors
import Testing

@Test func decodeConvertsUnitsAndTemperature() {
    var burst = MPU9250Burst(repeating: 0)
    // At ±8 g, 4096 LSB = 1 g; at ±2000 °/s, 16384 LSB = 1000 °/s; temperature 1335 LSB ≈ 25 °C.
    let values: [Int16] = [4096, -4096, 0, 1335, 16384, 0, -16384]
    for (i, value) in values.enumerated() {
        let bits = UInt16(bitPattern: value)
        burst[2 * i] = UInt8(bits >> 8)
        burst[2 * i + 1] = UInt8(bits & 0xFF)
    }
    let scale = InertialScale(accelerometerRange: .g8, gyroscopeRange: .dps2000, mounting: .identity)
    let reading = decodeInertialBurst(burst, scale: scale)
    #expect(close(reading.accelerometer, SIMD3(Gravity.standard, -Gravity.standard, 0), 1e-5))
    #expect(close(reading.gyroscope, SIMD3(1000 * .pi / 180, 0, -1000 * .pi / 180), 1e-5))
    #expect(abs(reading.temperature - (1335 / 333.87 + 21)) < 1e-4)
    #expect(!reading.saturated)
}

@Test func decodeFlagsSaturationAndAppliesMounting() throws {
    var burst = MPU9250Burst(repeating: 0)
    burst[0] = 0x7F; burst[1] = 0xFF  // accel x = +32767
    burst[8] = 0x10  // gyro x = 4096
    let mounting = try Mounting("+y-x+z")
    let reading = decodeInertialBurst(burst, scale: InertialScale(accelerometerRange: .g2, gyroscopeRange: .dps250, mounting: mounting))
    #expect(reading.saturated)
    // chip x → body −y
    #expect(reading.accelerometer.x == 0 && reading.accelerometer.y < -19)
    #expect(reading.gyroscope.y < 0 && reading.gyroscope.x == 0)
}

@Test func magnetometerDecodeSwapsAxesAndHonoursStatus() {
    var bytes = AK8963Read(repeating: 0)
    bytes[0] = 0x01  // DRDY
    bytes[1] = 100; bytes[2] = 0      // AK x = 100 LSB = 15 µT
    bytes[3] = 0x38; bytes[4] = 0xFF  // AK y = −200 LSB = −30 µT
    bytes[5] = 44; bytes[6] = 1       // AK z = 300 LSB = 45 µT
    bytes[7] = 0x10
    let scale = MagnetometerScale(asa: SIMD3(128, 128, 128), mounting: .identity)
    guard case .field(let field) = decodeMagnetometer(bytes, scale: scale) else {
        Issue.record("expected a field")
        return
    }
    // MPU frame: x = AK y, y = AK x, z = −AK z
    #expect(close(field, SIMD3(-30, 15, -45), 1e-4))
    bytes[7] = 0x18
    #expect(decodeMagnetometer(bytes, scale: scale) == .overflow)
    bytes[0] = 0
    #expect(decodeMagnetometer(bytes, scale: scale) == .notReady)
}

@Test func sensitivityAdjustmentFollowsTheDatasheet() {
    let scale = MagnetometerScale(asa: SIMD3(128, 0xB0, 0), mounting: .identity)
    #expect(scale.sensitivity.x == 0.15)
    #expect(abs(scale.sensitivity.y - 0.15 * ((176 - 128) / 256 + 1)) < 1e-7)
    #expect(abs(scale.sensitivity.z - 0.15 * 0.5) < 1e-7)
}

@Test func mountingParsesAllTwentyFourRotations() throws {
    #expect(Mounting.all.count == 24)
    #expect(Set(Mounting.all).count == 24)
    for mounting in Mounting.all {
        #expect(try Mounting(mounting.description) == mounting)
        #expect(mounting.determinant == 1)
        let v = SIMD3<Float>(1, 2, 3)
        #expect(mounting.bodyToChip(mounting.chipToBody(v)) == v)
    }
    #expect(try Mounting("+x+y+z") == .identity)
    let turned = try Mounting("+y-x+z")
    #expect(turned.chipToBody(SIMD3(1, 0, 0)) == SIMD3(0, -1, 0))
}

@Test func mountingRejectsMirrorsRepeatsAndJunk() {
    #expect(throws: MountingError(text: "+y+x+z", reason: .reflection)) { try Mounting("+y+x+z") }
    #expect(throws: MountingError(text: "+x+x+z", reason: .repeatedAxis("x"))) { try Mounting("+x+x+z") }
    #expect(throws: MountingError(text: "xyz", reason: .syntax)) { try Mounting("xyz") }
    #expect(MountingError(text: "+y+x+z", reason: .reflection).description.contains("mirror image"))
}

@Test func configurationTableMatchesSettings() {
    var settings = MPU9250Settings()
    settings.accelerometerRange = .g4
    settings.gyroscopeRange = .dps500
    settings.sampleRateDivider = 4
    let table = settings.configurationTable
    #expect(table.first { $0.register == .accelConfig }?.value == 0x08)
    #expect(table.first { $0.register == .gyroConfig }?.value == 0x08)
    #expect(table.first { $0.register == .sampleRateDivider }?.value == 4)
    #expect(table.first { $0.register == .interruptPinConfig }?.value == 0x02)
    #expect(settings.outputRate == 200)
}

/// A gyroscope axis within 16 counts of either end is clipped (at any range); the
/// accelerometer at its end saturates the sample but does not clip the gyroscope.
@Test(arguments: [(Int16(32767), true), (32751, true), (32750, false), (-32768, true), (-32751, true),
                  (-32750, false), (0, false)])
func decodeFlagsAGyroscopeAtTheEndOfItsRangeAsClipped(raw: Int16, clipped: Bool) {
    for axis in 0..<3 {
        var burst = MPU9250Burst(repeating: 0)
        burst[0] = 0x7F; burst[1] = 0xFF  // accel x = +32767: saturated, not a clipped gyroscope
        let bits = UInt16(bitPattern: raw)
        burst[8 + 2 * axis] = UInt8(bits >> 8)
        burst[9 + 2 * axis] = UInt8(bits & 0xFF)
        for range in [MPU9250Settings.GyroscopeRange.dps250, .dps2000] {
            let reading = decodeInertialBurst(burst, scale: InertialScale(accelerometerRange: .g2, gyroscopeRange: range,
                                                                        mounting: .identity))
            #expect(reading.gyroscopeClipped == clipped, "raw \(raw) on axis \(axis)")
            #expect(reading.saturated)
        }
    }
}

import Foundation
import PoiseConfig
import PoiseFlightCore
import PoiseFusion
import PoiseSettings
import Testing

/// The gyroscope filters in the tick, built from a configuration as the loop builds them: a
/// tone at a notch's centre reaches the attitude filter and the controllers ≥ 20 dB weaker.
@Suite struct GyroFilterLoopTests {
    static func core(_ yaml: String) throws -> FlightCore<ComplementaryFilter> {
        let configuration = try PoiseConfiguration.parse(text: yaml, file: "test.yaml")
        return FlightCoreFactory.core(configuration, filter: ComplementaryFilter(settings: .default))
    }

    /// Largest |rotation rate| on each axis over the last half of `seconds` of a gyroscope
    /// tone of `amplitude` rad/s at `frequency` Hz, ticked at `rate` Hz.
    static func residual(_ core: inout FlightCore<ComplementaryFilter>, frequency: Double, amplitude: Float,
                         rate: Double, seconds: Double = 4) -> SIMD3<Float> {
        let ticks = Int(rate * seconds)
        var peak = SIMD3<Float>.zero
        for i in 0..<ticks {
            let t = Double(i) / rate
            let tone = amplitude * Float(sin(2 * .pi * frequency * t))
            let sample = SensorSample(accelerometer: SIMD3(0, 0, 9.81), gyroscope: SIMD3(tone, 0.5 * tone, -tone),
                                      magnetometer: nil, magnetometerIsNew: false, temperature: 25, saturated: false)
            _ = core.tick(SensorReading(sample: sample, time: t, state: .running), loop: LoopStatus())
            if i > ticks / 2 { let r = core.rotationRate; peak = pointwiseMax(peak, pointwiseMax(r, -r)) }
        }
        return peak
    }

    @Test func toneAtTheNotchCentreIsDownTwentyDecibelsInTheTick() throws {
        let yaml = """
            loop: {rate_hz: 1000, gyroscope_bias_time: 0}
            filter:
              gyro:
                notch1: {mode: static, center_hz: 120, bandwidth_hz: 60, attenuation_db: 40}

            """
        var filtered = try Self.core(yaml)
        var plain = try Self.core("loop: {rate_hz: 1000, gyroscope_bias_time: 0}\n")
        let through = Self.residual(&plain, frequency: 120, amplitude: 2, rate: 1000)
        let left = Self.residual(&filtered, frequency: 120, amplitude: 2, rate: 1000)
        #expect(through.x > 1.9)   // no filter: the tone reaches the rate
        for axis in 0..<3 {
            let db = 20 * log10(Double(left[axis] / through[axis]))
            #expect(db <= -20, "axis \(axis): \(db) dB")
        }
        // A slow motion passes: 2 Hz is within 0.1 dB.
        var slow = try Self.core(yaml)
        let passed = Self.residual(&slow, frequency: 2, amplitude: 1, rate: 1000)
        #expect(abs(20 * log10(Double(passed.x))) < 0.1)
    }

    @Test func withoutGyroFiltersTheTickSeesTheRawSampleBitForBit() throws {
        var core = try Self.core("loop: {rate_hz: 500, gyroscope_bias_time: 0}\n")
        #expect(!core.gyroFilters.isActive)
        let g = SIMD3<Float>(0.0123, -1.5e-5, 3.25)
        let sample = SensorSample(accelerometer: SIMD3(0, 0, 9.81), gyroscope: g, magnetometer: nil,
                                  magnetometerIsNew: false, temperature: 25, saturated: false)
        _ = core.tick(SensorReading(sample: sample, time: 0, state: .running), loop: LoopStatus())
        #expect(core.rotationRate == g - core.filter.status.gyroscopeBias)
    }
}

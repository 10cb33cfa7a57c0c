import PoiseConfig
import PoiseDeviceSettings
import PoiseSensors
import PoiseSettings
import Testing

/// The configuration file drives the MPU-9250 driver: defaults agree, every key arrives, and a
/// calibration saved to a file loads back as the very numbers that were measured.
@Suite struct SensorConfigurationTests {
    /// The `sensor` keys are bound to the driver's fields, so their defaults are its own; what
    /// the `board` and `loop` sections set (address, mounting, tick rate) and the derived
    /// accelerometer bandwidth are pinned here.
    @Test func configDefaultsAreDriverDefaults() {
        let fromConfig = MPU9250Settings(configuration: .default)
        #expect(fromConfig == MPU9250Settings.default)
        // Field by field, so a failure names the disagreement.
        let d = MPU9250Settings.default
        #expect(fromConfig.address == d.address)
        #expect(fromConfig.mounting == d.mounting)
        #expect(fromConfig.accelerometerBandwidth == d.accelerometerBandwidth)
        #expect(fromConfig.tickRate == d.tickRate)
        #expect(SensorCalibration(configuration: .default) == .identity)
    }

    @Test func everySensorKeyReachesTheDriver() throws {
        let configuration = try PoiseConfiguration.parse(text: """
            board:
              address: 0x69
              mounting: +y-x+z
            sensor:
              accelerometer_range_g: 4
              gyroscope_range_dps: 500
              dlpf_hz: 41
              sample_rate_hz: 200
              magnetometer_rate_hz: 8
              fifo: true
              read_retries: 3
              lost_after_failures: 7
            loop:
              rate_hz: 400
            """, file: "t.yaml")
        let settings = MPU9250Settings(configuration: configuration)
        #expect(settings.address == 0x69)
        #expect(settings.mounting == (try Mounting("+y-x+z")))
        #expect(settings.accelerometerRange == .g4)
        #expect(settings.gyroscopeRange == .dps500)
        #expect(settings.gyroscopeBandwidth == .hz41)
        #expect(settings.accelerometerBandwidth == .hz45)
        #expect(settings.sampleRateDivider == 4 && settings.outputRate == 200)
        #expect(settings.magnetometerMode == .continuous8Hz)
        #expect(settings.useFIFO && settings.retries == 3 && settings.lostAfterFailures == 7)
        #expect(settings.tickRate == 400)
        #expect(settings.problems.isEmpty)

        let sixD = try PoiseConfiguration.parse(text: "sensor:\n  magnetometer: false\nfilter:\n  magnetometer: false\n", file: "t.yaml")
        #expect(MPU9250Settings(configuration: sixD).magnetometerMode == .powerDown)
    }

    @Test(arguments: [(250, 218.1), (184, 218.1), (92, 99.0), (41, 44.8), (20, 21.2), (10, 10.2), (5, 5.05)])
    func accelerometerBandwidthFollowsTheGyroscopes(_ dlpf: Int, accelerometer: Double) throws {
        let configuration = try PoiseConfiguration.parse(text: "sensor:\n  dlpf_hz: \(dlpf)\n", file: "t.yaml")
        #expect(MPU9250Settings(configuration: configuration).accelerometerBandwidth.hertz == accelerometer)
    }

    /// Rates no divider reaches get the nearest one the chip can do.
    @Test(arguments: [(1000.0, 0), (500, 1), (300, 2), (250, 3), (200, 4), (190, 4), (100, 9), (7, 142), (4, 249)])
    func sampleRateBecomesTheNearestDivider(_ rate: Double, divider: Int) {
        #expect(MPU9250Settings.sampleRateDivider(nearest: rate, internalRate: 1000) == UInt8(divider))
    }

    @Test func dividerIsNearestForEveryRate() {
        for internalRate in [1000.0, 8000.0] {
            var rate = 4.0
            while rate <= 1000 {
                let chosen = Int(MPU9250Settings.sampleRateDivider(nearest: rate, internalRate: internalRate))
                let error = { (divider: Int) in abs(internalRate / Double(1 + divider) - rate) }
                for other in [chosen - 1, chosen + 1] where (0...255).contains(other) {
                    #expect(error(chosen) <= error(other), "rate \(rate) Hz, internal \(internalRate) Hz")
                }
                rate += 1.7
            }
        }
    }

    static let measured = SensorCalibration(
        gyroscopeBias: SIMD3(0.0213, -0.015547534, 1e-5), accelerometerOffset: SIMD3(0.08, -0.1175, 0.2),
        accelerometerScale: SIMD3(1.0099585, 0.99, 1.02), magnetometerHardIron: SIMD3(25.01776, -11.99, 30),
        magnetometerSoftIron: (SIMD3(0.953, 0.0017, -0.0002), SIMD3(0.0017, 1.052, 0.0003), SIMD3(-0.0002, 0.0003, 0.98)))

    /// Saved into a file with any of the 24 mountings and loaded again, the calibration is
    /// exactly what was measured.
    @Test func calibrationRoundTripsThroughTheFile() throws {
        for mountingName in AxisMapping.allNames {
            let mounting = try Mounting(mountingName)
            var values: [(path: String, value: ConfigValue)] = []
            for part in CalibrationPart.allCases {
                values += Self.measured.configurationValues(for: part, mounting: mounting)
            }
            let text = try ConfigEditor.setting(values, in: "board:\n  mounting: \(mountingName)\n", file: "t.yaml")
            let loaded = SensorCalibration(configuration: try PoiseConfiguration.parse(text: text, file: "t.yaml"))
            #expect(loaded == Self.measured, "mounting \(mountingName)")
        }
    }

    /// Correcting in the chip frame, then mounting, equals mounting, then correcting in the
    /// body frame: the file's chip-frame numbers mean the same thing under every mounting.
    @Test func chipFrameCalibrationCommutesWithMounting() throws {
        let raw = SIMD3<Float>(3.5, -7.25, 11)
        let chip = Self.measured
        for name in AxisMapping.allNames {
            let mounting = try Mounting(name)
            let body = chip.inBodyFrame(mounting)
            #expect(body.inChipFrame(mounting) == chip)
            let turned = mounting.chipToBody(raw)
            #expect(close(mounting.chipToBody(chip.correctGyroscope(raw)), body.correctGyroscope(turned)), "\(name)")
            #expect(close(mounting.chipToBody(chip.correctAccelerometer(raw)), body.correctAccelerometer(turned)), "\(name)")
            #expect(close(mounting.chipToBody(chip.correctMagnetometer(raw)), body.correctMagnetometer(turned)), "\(name)")
        }
    }

    @Test func onlyThePartsKeysAreWritten() {
        #expect(Self.measured.configurationValues(for: .gyroscope, mounting: .identity).map(\.path)
                == ["sensor.calibration.gyroscope_bias"])
        #expect(Self.measured.configurationValues(for: .magnetometer, mounting: .identity).map(\.path)
                == ["sensor.calibration.magnetometer_hard_iron", "sensor.calibration.magnetometer_soft_iron"])
        // Shortest decimals: 1e-5 as a Float is written 1e-05, not 9.99999974737875e-06.
        #expect(Self.measured.configurationValues(for: .gyroscope, mounting: .identity)[0].value
                == .vector3([0.0213, -0.015547534, 1e-5]))
    }

    func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
        let d = a - b
        return (d * d).sum() < 1e-10
    }
}

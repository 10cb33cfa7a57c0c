import Testing
import PoiseConfig

/// Values a real sensor cannot produce are refused with their line, and
/// garbage is never echoed at length.
@Suite struct ImpossibleValuesTests {
    func errors(_ yaml: String) -> [String] {
        do {
            _ = try PoiseConfiguration.parse(text: yaml, file: "c.yaml")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test(arguments: [
        ("gyroscope_bias: [0, 0, 35]", "c.yaml:3: sensor.calibration.gyroscope_bias: z = 35.0 rad/s is beyond"),
        ("gyroscope_bias: [0, .nan, 0]", "c.yaml:3: sensor.calibration.gyroscope_bias"),
        ("accelerometer_offset: [-200, 0, 0]", "c.yaml:3: sensor.calibration.accelerometer_offset: x = -200.0 m/s²"),
        ("accelerometer_scale: [1, 1, 3.5e38]", "c.yaml:3: sensor.calibration.accelerometer_scale: z = 3.5e+38"),
        ("accelerometer_scale: [1, -1, 1]", "c.yaml:3: sensor.calibration.accelerometer_scale: y = -1.0"),
        ("magnetometer_hard_iron: [5000, 0, 0]", "c.yaml:3: sensor.calibration.magnetometer_hard_iron: x = 5000.0 µT"),
        ("magnetometer_soft_iron: [[1, 0, 0], [0, 1, 0], [0, 0, -1e308]]", "c.yaml:3: sensor.calibration.magnetometer_soft_iron: [2][2]"),
        ("magnetometer_soft_iron: [[0, 0, 0], [0, 0, 0], [0, 0, 0]]", "c.yaml:3: sensor.calibration.magnetometer_soft_iron: the matrix is singular"),
    ])
    func impossibleCalibrationIsRefused(_ line: String, _ expected: String) {
        let found = errors("sensor:\n  calibration:\n    \(line)\n")
        #expect(found.count == 1 && found[0].hasPrefix(expected), "\(found)")
    }

    @Test func plausibleCalibrationPasses() {
        #expect(errors("""
            sensor:
              calibration:
                gyroscope_bias: [0.02, -0.01, 0.005]
                accelerometer_offset: [0.1, -0.2, 0.3]
                accelerometer_scale: [1.01, 0.99, 1.0]
                magnetometer_hard_iron: [12, -8, 25]
                magnetometer_soft_iron: [[1.05, 0.01, 0], [0.01, 0.95, 0], [0, 0, 1]]
            """ + "\n").isEmpty)
    }

    /// Found by the config fuzz target: a long garbled key was quoted whole.
    @Test func garbageIsNotEchoedAtLength() {
        let key = String(repeating: "bi\u{FFFD}", count: 400)
        for problem in errors("filter:\n  \(key): 1\n") + errors(String(repeating: "x", count: 100_000)) {
            #expect(problem.utf8.count < 1000, "\(problem.utf8.count) bytes")
        }
    }

    @Test func nonTextIsPositioned() {
        #expect(ConfigError.notText(file: "c.yaml", bytes: Array("a: 1\nb: \u{FF}".utf8))?.description == nil)
        #expect(ConfigError.notText(file: "c.yaml", bytes: [0x61, 0x0A, 0x62, 0xFF])?.description
                == "c.yaml:2: not a text file: invalid UTF-8 (byte 0xFF)")
        #expect(ConfigError.notText(file: "c.yaml", bytes: [0x61, 0x00])?.description == "c.yaml:1: not a text file: a NUL byte")
    }
}

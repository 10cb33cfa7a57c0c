import Testing
import Foundation
import PoiseConfig

/// The repository root, found from this file so tests run from any directory.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Test(arguments: ["", "\n", "# only a comment\n", "~\n", "board:\nsensor:\n"])
func emptyFileMeansAllDefaults(_ text: String) throws {
    #expect(try PoiseConfiguration.parse(text: text, file: "e.yaml") == .default)
}

@Test func defaultsAreTheDocumentedOnes() {
    let c = PoiseConfiguration.default
    #expect(c.board.kind == .sim && c.board.i2cBus == "/dev/i2c-1" && c.board.address == 0x68)
    #expect(c.board.mounting == .identity && c.board.gpioChip == "gpiochip0")
    let sensor = c.sensor.driver  // the driver's own settings, bound to the sensor keys
    #expect(sensor.accelerometerRange.g == 16 && sensor.gyroscopeRange.degreesPerSecond == 2000)
    #expect(sensor.gyroscopeBandwidth.hertz == 92 && sensor.outputRate == 1000 && c.sensor.magnetometer)
    #expect(sensor.magnetometerMode.rate == 100 && !sensor.useFIFO && sensor.retries == 1)
    #expect(sensor.lostAfterFailures == 10)
    #expect(c.sensor.calibration.accelerometerScale == [1, 1, 1])
    #expect(c.sensor.calibration.magnetometerSoftIron == .identity)
    #expect(c.filter.name == .poise && c.filter.magnetometer)
    #expect(c.filter.madgwick.beta == 0.1 && c.filter.madgwick.startupGain == 10 && c.filter.madgwick.startupTime == 3)
    #expect(c.filter.mahony.kp == 0.74 && c.filter.mahony.ki == 0.0012)
    #expect(c.filter.mekf.gyroscopeBiasNoise == 1e-5)
    #expect(c.filter.poise.accelerometerTimeConstant == 3 && c.filter.poise.magnetometerTimeConstant == 9)
    #expect(c.filter.poise.biasLimit == 2 * Float.pi / 180)
    #expect(c.frame.output == .enu)
    #expect(c.controller.kind == .none && c.controller.balance.pitch.outputLimit == 1)
    #expect(c.outputs.channels.isEmpty && c.outputs.pwmSysfsRoot == "/sys/class/pwm")
    #expect(c.outputs.pca9685.address == 0x40 && c.outputs.pca9685.frequencyHz == 50)
    #expect(c.safety.supervisor.maxTilt == Float(45 * Double.pi / 180) && c.safety.supervisor.sensorTimeout == 0.02)
    #expect(c.loop.rateHz == 200 && c.loop.overrunLimit == 5 && c.loop.realtimePriority == 0 && c.loop.cpu == -1)
    #expect(c.values.number("filter.madgwick.beta") == 0.1)
}

@Test func everySchemaKeyHasADefaultDocAndUniquePath() {
    #expect(Set(ConfigSchema.keys.map(\.path)).count == ConfigSchema.keys.count)
    for key in ConfigSchema.keys {
        #expect(key.defaultValue != nil, "\(key.path)")
        #expect(!key.doc.isEmpty, "\(key.path)")
    }
}

@Test func shippedExampleIsExactlyThePrintedDefaults() throws {
    let example = try String(contentsOf: repositoryRoot.appending(path: "boards/poise.example.yaml"), encoding: .utf8)
    #expect(example == ConfigWriter.defaultsYAML,
            "regenerate with `poise check --print-defaults > boards/poise.example.yaml`")
    #expect(try PoiseConfiguration.parse(text: example, file: "poise.example.yaml") == .default)
}

@Test(arguments: ["sim.yaml", "raspberry-pi-mpu9250.yaml", "raspberry-pi-5-mpu9250.yaml", "poise.example.yaml"])
func exampleBoardsAreValid(_ name: String) throws {
    let path = repositoryRoot.appending(path: "boards/\(name)").path
    let configuration = try PoiseConfiguration.load(path: path)
    if name == "raspberry-pi-mpu9250.yaml" {
        #expect(configuration.board.kind == .linux && configuration.board.i2cBus == "/dev/i2c-1")
        #expect(configuration.board.mounting.description == "+y-x+z")
        #expect(configuration.outputs.channels.first?.kind == .pwm)
        #expect(configuration.outputs.channels.first?.safeMicroseconds == 1500)
        #expect(configuration.outputs.channels.filter { $0.kind == .gpio }.map(\.line) == [17, 27])
    }
    if name == "sim.yaml" { #expect(configuration.board.kind == .sim) }
    if name == "raspberry-pi-5-mpu9250.yaml" { #expect(configuration.board.gpioChip == "pinctrl-rp1") }
}

@Test func docsCarryTheCurrentKeyReference() throws {
    let docs = try String(contentsOf: repositoryRoot.appending(path: "docs/config.md"), encoding: .utf8)
    #expect(docs.contains(ConfigReference.markdown),
            "regenerate the table in docs/config.md with `poise check --print-reference`")
}

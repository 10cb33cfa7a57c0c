import Foundation
@testable import PoiseBoard
import PoiseConfig
import PoiseDeviceSettings
import PoiseDeviceTools
import PoiseLive
import PoiseMath
import PoiseReplay
import PoiseSensors
import PoiseSettings
import PoiseSimulation
import PoiseTraces
import PropertyBased
import Testing

/// `poise-board record` and `calibrate`: their arguments, the sensor-only header a recording
/// carries, and the calibration's text, each the host's.
@Suite struct BoardRecordCalibrateTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func recordAndCalibrateArguments() throws {
        #expect(try BoardCommand.parse(["record", "--config", "r.pcfg", "out.ptrace"])
                == .run(.init(config: "r.pcfg", record: "out.ptrace", sensorOnly: true)))
        var record = BoardCommand.RunRequest(config: "r.pcfg", record: "o.csv", overwrite: true, duration: 3, statsJSON: "s.json",
                                             quiet: true, sensorOnly: true)
        #expect(try BoardCommand.parse(["record", "o.csv", "--config=r.pcfg", "--overwrite", "--duration", "3",
                                        "--stats-json", "s.json", "--quiet"]) == .run(record))
        record.duration = nil
        #expect(try BoardCommand.parse(["record", "--help"]) == .help)
        #expect(try BoardCommand.parse(["calibrate", "gyro", "--config", "r.pcfg"]) == .calibrate(.init(sensor: "gyro", config: "r.pcfg")))
        #expect(try BoardCommand.parse(["calibrate", "mag", "--config", "r.pcfg", "--seconds", "60", "--yes"])
                == .calibrate(.init(sensor: "mag", config: "r.pcfg", seconds: 60, yes: true)))
        let refused: [([String], String)] = [
            (["record", "--config", "r.pcfg"], "missing OUT (the recording to write)"),
            (["record", "o.csv"], "missing --config COMPILED"),
            (["record", "o.csv", "--config", "r.pcfg", "--telemetry", "h:1"], "unknown option '--telemetry'"),
            (["calibrate", "--config", "r.pcfg"], "missing the sensor: gyro, accel or mag"),
            (["calibrate", "baro", "--config", "r.pcfg"], "calibrate gyro, accel or mag, not 'baro'"),
            (["calibrate", "gyro"], "missing --config COMPILED"),
            (["calibrate", "mag", "--config", "r.pcfg", "--seconds", "0"], "--seconds must be in (0, 3600]"),
        ]
        for (arguments, message) in refused {
            #expect(throws: BoardCommand.UsageError(message: message)) { try BoardCommand.parse(arguments) }
        }
    }

    /// The board has only the compiled file's `# config|` lines: turned into a sensor-only
    /// recording's, they are what the host writes for the effective configuration (no
    /// controller, no outputs) of every shipped configuration.
    @Test func sensorOnlyLinesAreTheEffectiveConfigurations() throws {
        let directory = Self.repository.appending(path: "configs")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 5)
        for file in files + ["../Tests/vm/board-gpio.yaml"] {
            let configuration = try PoiseConfiguration.load(path: directory.appending(path: file).path)
            var full = TraceMetadata()
            EmbeddedConfiguration.add(configuration, to: &full)
            var effective = configuration
            effective.values["controller.kind"] = .string("none")
            effective.values["outputs.channels"] = .list([])
            var expected = TraceMetadata()
            EmbeddedConfiguration.add(effective, to: &expected)
            #expect(RecordingFile.sensorOnlyLines(full.lines) == expected.lines, "\(file)")
            #expect(RecordingFile.sensorOnlyLines(expected.lines) == expected.lines, "\(file)")
        }
    }

    /// The YAML to paste is the configuration writer's (`ConfigEditor.snippet`, which `poise
    /// calibrate --save` edits files with), for any measurement and mounting.
    @Test func calibrationSnippetIsTheConfigurationWriters() async {
        let vector = Gen.float(in: -60...60).simd3
        await propertyCheck(count: 200, input: vector, vector, vector, vector, Gen.int(in: 0...(Mounting.all.count - 1))) { a, b, c, d, m in
            let measured = SensorCalibration(gyroscopeBias: a * 0.001, accelerometerOffset: b * 0.01, accelerometerScale: 1 + c * 0.001,
                                             magnetometerHardIron: d, magnetometerSoftIron: (SIMD3(1, a.x * 0.001, 0), SIMD3(a.x * 0.001, 0.98, c.z * 0.0001),
                                                                                             SIMD3(0, c.z * 0.0001, 1.02)))
            let mounting = Mounting.all[m]
            for (sensor, part) in [(CalibrationSensor.gyro, CalibrationPart.gyroscope), (.accel, .accelerometer), (.mag, .magnetometer)] {
                #expect(CalibrationYAML.snippet(measured, sensor: sensor, mounting: mounting)
                        == ConfigEditor.snippet(measured.configurationValues(for: part, mounting: mounting)))
            }
        }
    }

    /// A Float's text as the configuration writes the Double of its shortest decimal, at
    /// every magnitude.
    @Test func calibrationNumbersAreTheConfigurationWriters() async {
        await propertyCheck(count: 2000, input: Gen.float(in: -1...1), Gen.int(in: -30...30)) { x, exponent in
            let value = x * Float(pow(10, Double(exponent)))
            guard value.isFinite else { return }
            #expect(CalibrationYAML.number(value) == "\(Double("\(value)")!)", "\(value)")
        }
        for value: Float in [0, -0.0, 1, 16_777_216, 1.5e8, -9e15, 9.1e15, 1e20, 1e-5, .greatestFiniteMagnitude] {
            #expect(CalibrationYAML.number(value) == "\(Double("\(value)")!)", "\(value)")
        }
    }

    /// The guided calibration the board runs, on the simulated register map: the host's
    /// prompts and result, the board's name in the hint, and the text after it the host's.
    @Test func guidedGyroscopeAndAccelerometerOnTheSimulatedChip() throws {
        for sensor in [CalibrationSensor.gyro, .accel] {
            var settings = MPU9250Settings.default
            settings.tickRate = 1000
            let chip = SimulatedMPU9250(motion: StaticPose())
            var said: [String] = []
            var prompts: [String] = []
            let calibration = GuidedCalibration<SimulatedMPU9250<StaticPose>>(
                sensor: sensor, settings: settings, programName: "poise-board",
                pacer: { bus, time, _ in bus.advance(to: time) }, say: { said.append($0) },
                prompt: { prompts.append($0) })
            let measured = try calibration.measure(on: chip) { bus, step in
                if case .holdStill(_, let attitude) = step { bus.motion = StaticPose(attitude: attitude) }
            }
            let text = BoardCalibrate.report(measured, calibration: calibration, mounting: .identity)
            let chipFrame = measured.inChipFrame(.identity)
            if sensor == .gyro {
                #expect(prompts == ["Step 1/1: put the board down and keep it still for 0.4 s."])
                #expect(said == ["Gyroscope bias measured over 400 samples."])
                #expect(chipFrame.gyroscopeBias.x.isFinite && abs(chipFrame.gyroscopeBias.x) < 0.1)
            } else {
                #expect(prompts.count == 6 && prompts[1] == "Step 2/6: rest the board still with -z (upside down).")
                #expect(said.count == 6 && said.allSatisfy { $0.hasPrefix("  mean (m/s²): ") })
            }
            let part: CalibrationPart = sensor == .gyro ? .gyroscope : .accelerometer
            let host = calibration.resultLines(measured, mounting: .identity).map { $0 + "\n" }.joined()
                + "\nFor your configuration (chip frame = body frame):\n"
                + ConfigEditor.snippet(measured.configurationValues(for: part, mounting: .identity))
            #expect(text == host)
        }
    }

    /// A chip that does not start names the board's probe command.
    @Test func aSilentBusNamesTheBoardsProbe() {
        let chip = SimulatedMPU9250(motion: StaticPose(), address: 0x69)
        let calibration = GuidedCalibration<SimulatedMPU9250<StaticPose>>(
            sensor: .gyro, settings: .default, programName: "poise-board",
            pacer: { bus, time, _ in bus.advance(to: time) }, say: { _ in }, prompt: { _ in })
        #expect(throws: BenchFailure.self) { _ = try calibration.measure(on: chip) }
        do { _ = try calibration.measure(on: chip) } catch {
            #expect(error.hint == "run `poise-board probe` to check the bus and the chip")
        }
    }
}

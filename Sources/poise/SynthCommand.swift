import ArgumentParser
import PoiseConfig
import PoiseMotion
import PoiseTraces
import PoiseMath

/// `poise synth`: writes a trace with exact ground truth from a scripted motion.
struct SynthCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write a trace with exact ground truth from a scripted motion.",
        discussion: """
            The motion is a built-in preset (\(MotionScript.presetNames.joined(separator: ", "))) \
            or a script file (see docs/motion-scripts.md). Sensor errors start from a preset \
            (\(SensorErrorModel.presetNames.joined(separator: ", "))) and each can be overridden. \
            The same arguments always give byte-identical output.

            Examples:
              poise synth --motion demo --output demo.csv
              poise synth --script my-motion.txt --rate 1000 --errors uncalibrated --seed 7 --output run.csv
              poise synth --motion tumble --disturbance 10:14:60,0,-30 --output magnet.ptrace
            """)

    @Option(help: "A built-in motion.")
    var motion: MotionPresetName?

    @Option(help: "A motion script file (see docs/motion-scripts.md).")
    var script: String?

    @Option(parsing: .unconditional, help: "Sample rate, Hz.")
    var rate: Double = 200

    @Option(help: "Sensor error preset.")
    var errors = ErrorPresetName("default")

    @Option(parsing: .unconditional, help: "Seed of the noise generator.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Gyroscope noise density, rad/s/√Hz.")
    var gyroscopeNoise: Double?
    @Option(parsing: .unconditional, help: "Gyroscope bias, rad/s, as x,y,z.")
    var gyroscopeBias: String?
    @Option(parsing: .unconditional, help: "Accelerometer noise density, m/s²/√Hz.")
    var accelerometerNoise: Double?
    @Option(parsing: .unconditional, help: "Accelerometer bias, m/s², as x,y,z.")
    var accelerometerBias: String?
    @Option(parsing: .unconditional, help: "Scale factor of gyroscope and accelerometer axes, as x,y,z (1 = exact).")
    var scale: String?
    @Option(parsing: .unconditional, help: "Magnetometer noise, µT (one sigma).")
    var magnetometerNoise: Double?
    @Option(parsing: .unconditional, help: "Magnetometer hard-iron offset, µT, as x,y,z.")
    var hardIron: String?
    @Option(parsing: .unconditional, help: "How much older each magnetometer reading is than the gyroscope's, ms (an AK8963 at 100 Hz: 10–20).")
    var magnetometerLatency: Double?
    @Option(parsing: .unconditionalSingleValue, help: "A magnet fixed in the room during START:END seconds adding a field x,y,z µT (ENU), e.g. 10:14:60,0,-30. Repeatable.")
    var disturbance: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A magnet fixed to the sensor DISTANCE cm away along body x, its axis pointing at the sensor, as DISTANCE[:MOMENT] (MOMENT in A·m², default 0.01: a small neodymium disc). Repeatable.",
        discussion: "Its dipole field at the sensor, 0.2·MOMENT/r³ (µT with r in m) along body x, turns with the board: a hard-iron offset. 0.01 A·m² gives 74 µT at 3 cm, 31 µT at 4 cm, 9 µT at 6 cm.",
        valueName: "distance[:moment]"))
    var attachedMagnet: [String] = []

    @Option(parsing: .unconditional, help: "Initial heading: rotation about the vertical at t = 0, degrees counter-clockwise.")
    var heading: Double = 0

    @Flag(help: "Leave out the magnetometer columns (a 6D trace).")
    var noMagnetometer = false

    @Option(name: .shortAndLong, help: "Output file (.csv, or .ptrace/.bin for binary; - for standard output).")
    var output: String = "-"

    func validate() throws {
        if (motion == nil) == (script == nil) {
            throw ValidationError("give exactly one of --motion NAME or --script FILE")
        }
        guard rate > 0, rate.isFinite, rate <= 100_000 else {
            throw ValidationError("--rate must be in (0, 100000] Hz, got \(rate)")
        }
        // Named by their options here, before the error model would name its own fields.
        for (name, value) in [("--gyroscope-noise", gyroscopeNoise), ("--accelerometer-noise", accelerometerNoise),
                              ("--magnetometer-noise", magnetometerNoise)] {
            if let value, !(value.isFinite && value >= 0) { throw ValidationError("\(name) must be 0 or more, not \(value)") }
        }
    }

    func execute() throws {
        Interruption.install()
        let motionScript = try loadScript()
        let model = try errorModel()
        var generator = try MotionGenerator(script: motionScript, sampleRate: rate,
                                            initialHeading: heading * .pi / 180)
        var simulator = try SensorErrorSimulator(model: model, sampleRate: rate)
        var metadata = TraceMetadata()
        metadata.set("source", "poise-synth")
        // The file name, not the path: a trace should not depend on where it was made.
        metadata.set("motion", motionScript.name.split(separator: "/").last.map(String.init) ?? motionScript.name)
        metadata.set("errors", errors.name)
        metadata.set("seed", String(seed))
        metadata.set("rate_hz", String(rate))
        metadata.set("samples", String(generator.sampleCount))
        // Raw readings with the simulated errors: replay and eval may apply a calibration.
        metadata.set("calibrated", "no")
        let ranges = generator.movementRanges.map { "\($0.lowerBound):\($0.upperBound)" }
        metadata.set("movement", ranges.isEmpty ? "0:0" : ranges.joined(separator: ","))
        metadata.append(comment: "units: t s, a m/s^2, g rad/s, m uT; q = exact truth, body-to-ENU, Hamilton, w first")
        let columns = TraceColumns.standard(magnetometer: !noMagnetometer, truth: true)
        var sink = try TraceWriter(path: output, format: TraceWriter.format(forPath: output) ?? .csv,
                                   metadata: metadata, columns: columns)
        while !Interruption.requested, let truth = generator.next() {
            let m = simulator.measure(truth)
            sink.write(TraceSample(time: m.time, accelerometer: m.accelerometer, gyroscope: m.gyroscope,
                                   magnetometer: noMagnetometer ? nil : m.magnetometer, truth: m.truth))
        }
        let rows = sink.rowCount
        try sink.close()
        if output != "-" && !Interruption.requested {
            printError("poise: wrote \(rows) samples (\(formatted(Double(rows) / rate, digits: 1)) s at \(formatted(rate, digits: 0)) Hz) to \(output)")
        }
    }

    private func loadScript() throws -> MotionScript {
        if let motion { return motion.script }
        let path = script!
        let text = try readTextFile(path)
        return try MotionScript(parsing: text, name: path)
    }

    private func errorModel() throws -> SensorErrorModel {
        guard var model = SensorErrorModel.preset(named: errors.name) else {
            throw ValidationError("unknown error preset '\(errors.name)'")
        }
        model.seed = seed
        if let gyroscopeNoise { model.gyroscopeNoiseDensity = gyroscopeNoise }
        if let gyroscopeBias {
            model.gyroscopeBias = try parseVector(gyroscopeBias, option: "--gyroscope-bias")
            if let note = PlantPlausibility.gyroscopeBiasWarning(model.gyroscopeBias) { printError("poise: warning: --gyroscope-bias \(note)") }
        }
        if let accelerometerNoise { model.accelerometerNoiseDensity = accelerometerNoise }
        if let accelerometerBias { model.accelerometerBias = try parseVector(accelerometerBias, option: "--accelerometer-bias") }
        if let scale {
            let s = try parseVector(scale, option: "--scale")
            model.gyroscopeScale = s
            model.accelerometerScale = s
        }
        if let magnetometerNoise { model.magnetometerNoise = magnetometerNoise }
        if let hardIron { model.hardIron = try parseVector(hardIron, option: "--hard-iron") }
        if let magnetometerLatency {
            guard magnetometerLatency.isFinite, (0...1000).contains(magnetometerLatency) else {
                throw ValidationError("--magnetometer-latency \(magnetometerLatency): expected 0…1000 ms")
            }
            model.magnetometerLatency = magnetometerLatency / 1000
        }
        for text in disturbance {
            let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3, let start = Double(parts[0]), let end = Double(parts[1]) else {
                throw ValidationError("--disturbance '\(text)': expected START:END:x,y,z (seconds, µT)")
            }
            let field = try parseVector(parts[2], option: "--disturbance")
            model.magneticDisturbances.append(MagneticDisturbance(start: start, end: end, field: field))
        }
        for text in attachedMagnet {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard (1...2).contains(parts.count), let centimetres = parts[0], centimetres.isFinite, centimetres > 0,
                  let moment = parts.count == 2 ? parts[1] : 0.01, moment.isFinite, moment > 0 else {
                throw ValidationError("--attached-magnet '\(text)': expected DISTANCE[:MOMENT] with DISTANCE > 0 (cm) and MOMENT > 0 (A·m²), e.g. 4 or 4:0.02")
            }
            model.magneticDisturbances.append(.dipole(start: 0, end: .greatestFiniteMagnitude, moment: SIMD3(moment, 0, 0),
                                                      position: SIMD3(centimetres / 100, 0, 0), frame: .body, ramp: 0))
        }
        try model.validate()
        return model
    }
}

/// Parses `x,y,z`.
func parseVector(_ text: String, option: String) throws -> SIMD3<Double> {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: " ")) }
    guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2], x.isFinite, y.isFinite, z.isFinite else {
        throw ValidationError("\(option) '\(text)': expected three finite numbers x,y,z")
    }
    return SIMD3(x, y, z)
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}

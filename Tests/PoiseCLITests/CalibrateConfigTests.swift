import Foundation
import Testing

/// `poise calibrate … --config FILE --save` and `poise probe --config FILE`: calibration goes
/// into the user's file without disturbing the rest, and comes back out of it.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct CalibrateConfigTests {
    /// A copy of a shipped board file in a fresh directory.
    func copyOfBoard(_ name: String) throws -> (directory: URL, path: String, original: String) {
        let directory = try temporaryDirectory()
        let original = try String(contentsOf: repositoryRoot.appending(path: "boards/\(name)"), encoding: .utf8)
        let path = directory.appending(path: name).path
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        return (directory, path, original)
    }

    /// The three numbers after `prefix` on a line of `text`.
    func numbers(after prefix: String, in text: String) -> [Double] {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return [] }
        return line.dropFirst(prefix.count).split(whereSeparator: { " [],".contains($0) }).compactMap { Double($0) }
    }

    @Test func gyroBiasIsSavedIntoTheConfigKeepingEveryOtherLine() throws {
        let (directory, path, original) = try copyOfBoard("sim.yaml")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try poise(["calibrate", "gyro", "--board", "sim", "--yes", "--config", path, "--save"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("Saved sensor.calibration.gyroscope_bias in \(path)"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        // sim.yaml has no calibration block: exactly two lines are added, after the sensor keys.
        let added = saved.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !original.split(separator: "\n", omittingEmptySubsequences: false).contains($0)
        }
        #expect(added.count == 2 && added.first == "  calibration:")
        #expect(saved.replacingOccurrences(of: added.map { $0 + "\n" }.joined(), with: "") == original)
        // The simulated chip's gyroscope bias is (0.02, −0.015, 0.01) rad/s.
        let bias = numbers(after: "    gyroscope_bias:", in: saved)
        #expect(bias.count == 3)
        if bias.count == 3 {
            #expect(abs(bias[0] - 0.02) < 0.002 && abs(bias[1] + 0.015) < 0.002 && abs(bias[2] - 0.01) < 0.002)
        }
        let check = try poise(["check", path])
        #expect(check.status == 0 && check.text == "\(path): ok\n", "\(check.error)")

        // probe applies it: the resting board's rates are now noise around zero, not 0.02 rad/s.
        let probe = try poise(["probe", "--config", path, "--samples", "3"])
        #expect(probe.status == 0, "\(probe.error)")
        #expect(probe.text.contains("Calibration: sensor.calibration from \(path) applied"))
        let rows = probe.text.split(separator: "\n").filter { $0.hasPrefix("     0.") }
        #expect(rows.count == 3)
        for row in rows {
            let values = row.split(separator: " ").compactMap { Double($0) }
            #expect(values.count == 11 && values[4...6].allSatisfy { abs($0) < 0.008 }, "\(row)")
        }
    }

    /// The result is stored in the chip frame: with the Raspberry Pi file's `+y-x+z` mounting
    /// (flags overriding its `linux` board) the simulated chip's own bias comes out.
    @Test func calibrationIsStoredInTheChipFrame() throws {
        let (directory, path, original) = try copyOfBoard("raspberry-pi-mpu9250.yaml")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try poise(["calibrate", "gyro", "--board", "sim", "--yes", "--config", path, "--save"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("chip frame, mounting +y-x+z undone"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        let bias = numbers(after: "    gyroscope_bias:", in: saved)
        #expect(bias.count == 3)
        if bias.count == 3 {
            #expect(abs(bias[0] - 0.02) < 0.002 && abs(bias[1] + 0.015) < 0.002 && abs(bias[2] - 0.01) < 0.002)
        }
        // Only the gyroscope_bias line changed; its comment and the other calibration key stayed.
        let oldLines = original.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = saved.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(oldLines.count == newLines.count)
        let changed = zip(oldLines, newLines).filter { $0 != $1 }
        #expect(changed.count == 1 && changed.first?.0.hasPrefix("    gyroscope_bias: ") == true)
        #expect(try poise(["check", path]).status == 0)
    }

    @Test func magnetometerFromATraceRecoversTheHardIron() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appending(path: "tumble.csv").path
        let synth = try poise(["synth", "--motion", "tumble", "--errors", "uncalibrated", "--output", trace])
        #expect(synth.status == 0, "\(synth.error)")
        let config = directory.appending(path: "board.yaml").path
        try "# Mine.\nboard:\n  kind: sim\n".write(toFile: config, atomically: false, encoding: .utf8)

        let run = try poise(["calibrate", "mag", "--trace", trace, "--config", config, "--save"])
        #expect(run.status == 0, "\(run.error)")
        // The `uncalibrated` preset's hard iron is (25, −12, 30) µT in the body frame, which is
        // the chip frame under the default mounting.
        let saved = try String(contentsOfFile: config, encoding: .utf8)
        #expect(saved.hasPrefix("# Mine.\nboard:\n  kind: sim\n\nsensor:\n  calibration:\n    magnetometer_hard_iron: ["))
        let hardIron = numbers(after: "    magnetometer_hard_iron:", in: saved)
        #expect(hardIron.count == 3)
        if hardIron.count == 3 {
            #expect(abs(hardIron[0] - 25) < 2 && abs(hardIron[1] + 12) < 2 && abs(hardIron[2] - 30) < 2)
        }
        // Soft iron undoes the preset's (1.05, 0.95, 1.02) scale up to the common factor.
        let soft = numbers(after: "    magnetometer_soft_iron:", in: saved)
        #expect(soft.count == 9)
        if soft.count == 9 {
            #expect(abs(soft[0] * 1.05 - soft[4] * 0.95) < 0.02 && abs(soft[0] * 1.05 - soft[8] * 1.02) < 0.02)
        }
        #expect(try poise(["check", config]).status == 0)
    }

    @Test func tracesThatCannotCalibrateAreRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sixD = directory.appending(path: "6d.csv").path
        _ = try poise(["synth", "--motion", "tumble", "--no-magnetometer", "--output", sixD])
        let noMagnetometer = try poise(["calibrate", "mag", "--trace", sixD])
        #expect(noMagnetometer.status == 1)
        #expect(noMagnetometer.error.contains("no magnetometer values (columns mx, my, mz)"))

        let still = directory.appending(path: "still.csv").path
        _ = try poise(["synth", "--motion", "static", "--errors", "uncalibrated", "--output", still])
        let resting = try poise(["calibrate", "mag", "--trace", still])
        #expect(resting.status == 1)
        #expect(resting.error.hasPrefix("poise: the magnetometer samples do not outline an ellipsoid"))

        let script = directory.appending(path: "ring.txt").path
        try "rest 1\nspin z 90 deg/s for 20 s\n".write(toFile: script, atomically: false, encoding: .utf8)
        let ring = directory.appending(path: "ring.csv").path
        _ = try poise(["synth", "--script", script, "--errors", "uncalibrated", "--output", ring])
        let oneAxis = try poise(["calibrate", "mag", "--trace", ring])
        #expect(oneAxis.status == 1)
        #expect(oneAxis.error.contains("turning about one axis is not enough"))
    }

    @Test func invalidConfigIsRefusedWithItsErrorsAndLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "bad.yaml").path
        let text = "sensor:\n  dlpf_hz: 7\n  calibraton:\n    gyroscope_bias: [0, 0, 0]\n"
        try text.write(toFile: config, atomically: false, encoding: .utf8)
        for command in [["calibrate", "gyro", "--board", "sim", "--yes", "--save"], ["probe", "--board", "sim"]] {
            let run = try poise(command + ["--config", config])
            #expect(run.status == 1)
            #expect(run.error.contains("bad.yaml:2: sensor.dlpf_hz: `7` is not one of the allowed values"))
            #expect(run.error.contains("bad.yaml:3: sensor.calibraton: unknown key; did you mean `calibration`?"))
        }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == text)
    }

    @Test func flowStyleCalibrationIsEditedInPlace() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "flow.yaml").path
        let text = "board: {kind: sim}\nsensor:\n  calibration: {gyroscope_bias: [0, 0, 0]}\n"
        try text.write(toFile: config, atomically: false, encoding: .utf8)
        let run = try poise(["calibrate", "gyro", "--yes", "--config", config, "--save"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("Saved sensor.calibration.gyroscope_bias in \(config)"))
        // The flow mapping keeps its style and its neighbours; only the value changes.
        let saved = try String(contentsOfFile: config, encoding: .utf8)
        let lines = saved.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[0] == "board: {kind: sim}" && lines[1] == "sensor:")
        #expect(lines[2].hasPrefix("  calibration: {gyroscope_bias: [") && lines[2].hasSuffix("]}"))
        #expect(!lines[2].contains("[0, 0, 0]"))
        #expect(try poise(["check", config]).status == 0)
    }

    @Test func saveNeedsAConfigAndTraceIsForTheMagnetometer() throws {
        let save = try poise(["calibrate", "gyro", "--board", "sim", "--yes", "--save"])
        #expect(save.status != 0 && save.error.contains("--save writes into the configuration file"))
        let trace = try poise(["calibrate", "gyro", "--trace", "x.csv"])
        #expect(trace.status != 0 && trace.error.contains("--trace is for `poise calibrate mag`"))
    }

    @Test func withoutSaveTheSnippetIsPrinted() throws {
        let run = try poise(["calibrate", "accel", "--board", "sim", "--yes"])
        #expect(run.status == 0)
        #expect(run.text.contains("For your configuration (chip frame = body frame):\nsensor:\n  calibration:\n    accelerometer_offset: ["))
        #expect(run.text.contains("\n    accelerometer_scale: ["))
    }
}

/// `calibrate --save` into a file of all defaults (`{}`) or one that does not exist yet.
@Suite struct CalibrateSaveTests {
    @Test func anAllDefaultsConfigTakesTheCalibration() throws {
        let directory = try temporaryDirectory()
        let config = directory.appending(path: "defaults.yaml").path
        try "{}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try poise(["calibrate", "gyro", "--board", "sim", "--yes", "--config", config, "--save"])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.error.contains("bug in the editor"))
        #expect(run.text.contains("Saved sensor.calibration.gyroscope_bias in \(config)"), "\(run.text)")
        let saved = try String(contentsOfFile: config, encoding: .utf8)
        #expect(saved.hasPrefix("sensor:\n  calibration:\n    gyroscope_bias: ["), "\(saved)")
        #expect(try poise(["check", config]).status == 0)
    }

    @Test func aConfigThatDoesNotExistYetIsCreated() throws {
        let directory = try temporaryDirectory()
        let config = directory.appending(path: "new.yaml").path
        let run = try poise(["calibrate", "accel", "--board", "sim", "--yes", "--config", config, "--save"])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.error.contains("no such file"))
        let saved = try String(contentsOfFile: config, encoding: .utf8)
        #expect(saved.hasPrefix("sensor:\n  calibration:\n    accelerometer_offset: ["), "\(saved)")
        #expect(saved.contains("\n    accelerometer_scale: ["))
        #expect(try poise(["check", config]).status == 0)
        // Without --save a missing file is still an error: there is nothing to read.
        let probe = try poise(["probe", "--config", directory.appending(path: "none.yaml").path])
        #expect(probe.status == 1)
    }
}

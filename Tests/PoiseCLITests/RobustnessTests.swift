import Foundation
import Testing

/// Never crash, never lose a file: one test or more for each case marked below.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct RobustnessTests {
    // MARK: 1. plot on partial column groups and broken headers

    @Test(arguments: [
        "t,qw\n0,1\n",
        "t,mx,my\n0,1,2\n1,3,4\n",
        "t,ax,ay,az,gx,gy,gz,qw,qx,qy,qz\r\r\n0,0,0,9.8,0,0,0,1,0,0,0\r\r\n",
        "t,roll,pitch\n0,0.1\n",
        "t,qw,qx,qy,qz,mx\n0,1,0,0,0,\n1,1,0,0,,\n",
    ])
    func plotNeverCrashesOnPartialGroups(_ text: String) throws {
        let directory = try temporaryDirectory()
        let input = directory.appending(path: "in.csv")
        try text.write(to: input, atomically: true, encoding: .utf8)
        let run = try poise(["plot", input.path, "-o", directory.appending(path: "x.svg").path])
        #expect(run.status == 0 || run.status == 1, "\(run.status): \(run.error)")
        if run.status == 1 { #expect(run.error.hasPrefix("poise: \(input.path)"), "\(run.error)") }
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    @Test func plotOfTimeAndOneQuaternionColumnDrawsIt() throws {
        let directory = try temporaryDirectory()
        let input = directory.appending(path: "tq.csv")
        try "t,qw\n0,1\n1,0.5\n".write(to: input, atomically: true, encoding: .utf8)
        let run = try poise(["plot", input.path, "--columns", "qw", "-o", "-"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.hasPrefix("<?xml") || run.text.hasPrefix("<svg"))
    }

    // MARK: 2. devices are written, never replaced

    @Test func devicesStayDevices() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        for arguments in [["convert", trace, "/dev/null", "--to", "binary"], ["plot", trace, "-o", "/dev/null"],
                          ["eval", trace, "--plot", "/dev/null"], ["replay", trace, "--quiet", "-o", "/dev/null"]] {
            let run = try poise(arguments)
            #expect(run.status == 0, "\(arguments): \(run.error)")
            #expect(isCharacterDevice("/dev/null"), "\(arguments) replaced /dev/null")
        }
        let full = try poise(["replay", trace, "--quiet", "-o", "/dev/full"])
        #expect(full.status == 1)
        #expect(full.error == "poise: /dev/full: cannot write: No space left on device\n")
        #expect(isCharacterDevice("/dev/full"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.poise-\(0).tmp"))
    }

    @Test func aFIFOIsWrittenDirectly() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let fifo = directory.appending(path: "pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader on the other end, so the writer's open does not block forever.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let readerOutput = Pipe()
        reader.standardOutput = readerOutput
        try reader.run()
        let run = try poise(["replay", trace, "--quiet", "-o", fifo])
        let data = readerOutput.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(run.status == 0, "\(run.error)")
        #expect(String(decoding: data, as: UTF8.self).contains("t,qw,qx,qy,qz,roll,pitch,yaw\n"))
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    // MARK: 3. an input is never an output

    @Test func inputAsOutputIsRefusedAndKept() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        let link = directory.appending(path: "link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: trace)
        let hard = directory.appending(path: "hard.csv").path
        try FileManager.default.linkItem(atPath: trace, toPath: hard)
        for arguments in [["replay", trace, "--quiet", "-o", trace], ["replay", trace, "--quiet", "-o", link],
                          ["convert", trace, hard], ["plot", trace, "-o", trace],
                          ["eval", trace, "--plot", directory.appending(path: "./run.csv").path]] {
            let run = try poise(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.error.hasSuffix("is also an input of this command; write the output to another file\n"), "\(run.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before, "\(arguments) changed the input")
        }
        // Configs and motion scripts are inputs too.
        let config = directory.appending(path: "board.yaml").path
        try "{}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let script = directory.appending(path: "m.txt").path
        try "rest 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        for arguments in [["replay", trace, "--quiet", "--config", config, "-o", config], ["synth", "--script", script, "-o", script]] {
            let run = try poise(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.error.hasSuffix("is also an input of this command; write the output to another file\n"), "\(run.error)")
        }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "{}\n")
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    @Test func regularOutputsAreReplacedAtomicallyKeepingPermissions() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let output = directory.appending(path: "est.csv").path
        try "old".write(toFile: output, atomically: false, encoding: .utf8)
        chmod(output, 0o640)
        let run = try poise(["replay", trace, "--quiet", "-o", output])
        #expect(run.status == 0, "\(run.error)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("# source=poise-synth"))
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    @Test func unwritableDirectoryIsAClearErrorForAnUnprivilegedUser() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        chmod(directory.path, 0o755)
        chmod(trace, 0o644)
        let locked = directory.appending(path: "locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        chmod(locked.path, 0o555)
        let output = locked.appending(path: "est.csv").path
        guard let run = try poiseAsNobody(["replay", trace, "--quiet", "-o", output]) else {
            Issue.record("cannot drop root here (no setpriv): permission test skipped")
            return
        }
        #expect(run.status == 1)
        #expect(run.error == "poise: \(output): cannot create: Permission denied\n", "\(run.error)")
        // A read-only file in a writable directory is not replaced either.
        chmod(locked.path, 0o777)
        try "keep\n".write(toFile: output, atomically: false, encoding: .utf8)
        chmod(output, 0o444)
        let readOnly = try #require(try poiseAsNobody(["replay", trace, "--quiet", "-o", output]))
        #expect(readOnly.status == 1)
        #expect(readOnly.error == "poise: \(output): cannot write: Permission denied\n", "\(readOnly.error)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep\n")
    }

    // MARK: 4. cut-off binary recordings

    @Test func cutOffBinaryRecordingIsReadToItsLastWholeRecord() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let binary = directory.appending(path: "run.ptrace").path
        #expect(try poise(["convert", trace, binary]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: binary))
        try data.dropLast(12).write(to: URL(fileURLWithPath: binary))
        let run = try poise(["replay", binary, "--quiet", "-o", "-"])
        #expect(run.status == 0, "\(run.error)")
        let rows = run.text.split(separator: "\n").filter { $0.first?.isNumber == true }
        let inputRows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rows.count == inputRows.count - 1)
        let warnings = run.error.split(separator: "\n").filter { $0.hasPrefix("poise: warning: \(binary):\(inputRows.count):1: truncated record") }
        #expect(warnings.count == 1, "\(run.error)")
        let eval = try poise(["eval", binary])
        #expect(eval.status == 0)
        #expect(eval.error.contains("read up to the last whole record"))
        let strict = try poise(["replay", binary, "--quiet", "--strict", "-o", "-"])
        #expect(strict.status == 1)
        #expect(strict.error.hasPrefix("poise: \(binary):\(inputRows.count):1: truncated record"), "\(strict.error)")
    }

    // MARK: 5. interrupted runs

    @Test func interruptedReplayToStandardOutputEndsOnAWholeRow() throws {
        let fed = try FedPoise(["replay", "-", "--quiet", "-o", "-"])
        fed.feed("t,ax,ay,az,gx,gy,gz\n" + sensorRows(from: 0, count: 50))
        try fed.waitForSignalHandler()
        fed.process.interrupt()
        fed.feed(sensorRows(from: 50, count: 50))
        let run = try fed.finish()
        #expect(run.status == 130)
        #expect(run.error == "poise: interrupted by SIGINT; standard output ends on the last whole row written\n")
        #expect(run.text.hasSuffix("\n"))
        let rows = run.text.split(separator: "\n").filter { $0.first?.isNumber == true }
        // The signal may come before or after rows were read: any whole-row prefix is right.
        #expect(run.text.contains("t,qw,qx,qy,qz,roll,pitch,yaw\n"))
        #expect(rows.count <= 100)
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 8 })
    }

    @Test(arguments: [(["replay", "-", "--quiet", "-o"], "est.csv"), (["convert", "-"], "out.ptrace")])
    func interruptedRunLeavesTheOutputAsItWasAndNoTemporaryFile(_ command: [String], _ name: String) throws {
        let directory = try temporaryDirectory()
        let output = directory.appending(path: name)
        try "previous run\n".write(to: output, atomically: true, encoding: .utf8)
        let fed = try FedPoise(command + [output.path])
        fed.feed("t,ax,ay,az,gx,gy,gz\n" + sensorRows(from: 0, count: 50))
        try fed.waitForSignalHandler()
        fed.process.terminate()  // SIGTERM
        fed.feed(sensorRows(from: 50, count: 5))
        let run = try fed.finish()
        #expect(run.status == 143)
        #expect(run.error == "poise: interrupted by SIGTERM; \(output.path) was left unchanged\n")
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous run\n")
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    // MARK: 6. write errors

    @Test func noCommandExitsZeroAfterAFailedWriteToStandardOutput() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        for arguments in [["plot", trace, "-o", "-"], ["eval", trace], ["eval", trace, "--json"],
                          ["check", "--print-defaults"], ["check", "--print-reference"],
                          ["replay", trace, "--quiet", "-o", "-"], ["convert", trace, "-"],
                          ["probe", "--board", "sim"], ["calibrate", "gyro", "--board", "sim", "--yes"]] {
            let run = try poise(arguments, standardOutputTo: "/dev/full")
            #expect(run.status == 1, "\(arguments) exited \(run.status)")
            #expect(run.error.contains("poise: standard output: cannot write: No space left on device"), "\(arguments): \(run.error)")
            #expect(!run.error.contains("poise: -:"), "\(arguments) calls standard output '-'")
        }
    }

    // MARK: 7. impossible configuration values

    @Test(arguments: [
        ("sensor:\n  calibration:\n    gyroscope_bias: [3.5e38, 0, 0]\n", "c.yaml:3: sensor.calibration.gyroscope_bias: x = 3.5e+38 rad/s"),
        ("sensor:\n  calibration:\n    magnetometer_soft_iron: [[-1e308, 0, 0], [0, 1, 0], [0, 0, 1]]\n",
         "c.yaml:3: sensor.calibration.magnetometer_soft_iron: [0][0] = -1e+308"),
        ("sensor:\n  calibration:\n    accelerometer_scale: [0, 0, 0]\n", "c.yaml:3: sensor.calibration.accelerometer_scale: x = 0.0"),
        ("sensor:\n  calibration:\n    magnetometer_hard_iron: [0, 1e6, 0]\n", "c.yaml:3: sensor.calibration.magnetometer_hard_iron: y = 1000000.0 µT"),
        ("", "c.yaml:1: empty configuration"),
        ("# only a comment\n\n", "c.yaml:1: empty configuration"),
        ("a: 1\n\u{0}\n", "c.yaml:2: not a text file: a NUL byte"),
        (String(repeating: "[", count: 3000), "c.yaml:1: YAML syntax error: nested too deeply"),
    ])
    func checkRefusesImpossibleValues(_ yaml: String, _ expected: String) throws {
        let directory = try temporaryDirectory()
        let file = directory.appending(path: "c.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let run = try poise(["check", file.path])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix(directory.path + "/" + expected), "\(run.error)")
        #expect(!run.error.contains("yaml_set_max_nest_level"))
    }

    @Test func probeRefusesAConfigWithImpossibleCalibration() throws {
        let directory = try temporaryDirectory()
        let file = directory.appending(path: "c.yaml")
        try "sensor:\n  calibration:\n    accelerometer_scale: [0, 1, 1]\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try poise(["probe", "--board", "sim", "--config", file.path])
        #expect(run.status == 1)
        #expect(!run.text.contains("nan") && !run.text.contains("inf"))
    }

    @Test func nonYAMLInputIsNotEchoed() throws {
        let directory = try temporaryDirectory()
        let file = directory.appending(path: "big.yaml")
        let line = String(repeating: "binary-looking garbage without structure ", count: 50)
        try (line + ": " + String(repeating: "x", count: 1_000_000) + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try poise(["check", file.path])
        #expect(run.status == 1)
        #expect(run.error.utf8.count < 2000, "\(run.error.utf8.count) bytes of error")
    }

    // MARK: 8. smaller items

    @Test func movementPastTheEndIsAnErrorWithTheFile() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        var text = try String(contentsOfFile: trace, encoding: .utf8)
        let movement = try #require(text.split(separator: "\n").first { $0.hasPrefix("# movement=") })
        text = text.replacingOccurrences(of: String(movement), with: "# movement=100000:200000")
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let run = try poise(["eval", trace])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("poise: \(trace): its `# movement=100000:200000` ranges hold no row"), "\(run.error)")
        #expect(!run.text.contains("nan"))
        text = text.replacingOccurrences(of: "# movement=100000:200000", with: "# movement=0:100000")
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let partly = try poise(["eval", trace])
        #expect(partly.status == 0)
        #expect(partly.error.contains("poise: warning: \(trace): `# movement=` range 0:100000 runs past"), "\(partly.error)")
        text = text.replacingOccurrences(of: "# movement=0:100000", with: "# movement=-5:10")
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let negative = try poise(["eval", trace])
        #expect(negative.status == 1)
        #expect(negative.error.hasPrefix("poise: \(trace): in its `# movement=` line:"), "\(negative.error)")
    }

    @Test func errorsNameTheFile() throws {
        let directory = try temporaryDirectory()
        let table = directory.appending(path: "table.csv")
        try "a,b\n1,2\n".write(to: table, atomically: true, encoding: .utf8)
        let plot = try poise(["plot", table.path, "-o", "-"])
        #expect(plot.error == "poise: \(table.path):1:1: no time column 't' (columns: a,b)\n")
        let bad = directory.appending(path: "bad.csv")
        try "t,ax,ay,az,gx,gy,gz\n0,1,2,3,4,5\n".write(to: bad, atomically: true, encoding: .utf8)
        let convert = try poise(["convert", bad.path, directory.appending(path: "out.ptrace").path])
        #expect(convert.status == 1)
        #expect(convert.error.hasPrefix("poise: \(bad.path):2:"), "\(convert.error)")
        #expect(!convert.error.contains(".tmp"))
    }

    @Test func usageErrorsShowTheSubcommandsUsage() throws {
        let run = try poise(["replay", "x.csv", "--frame", "sideways"])
        #expect(run.status == 64)
        #expect(run.error.contains("Usage: poise replay "), "\(run.error)")
        #expect(!run.error.contains("SUBCOMMANDS"))
    }

    @Test func versionIsPrinted() throws {
        let run = try poise(["--version"])
        #expect(run.status == 0)
        #expect(run.text.split(separator: ".").count == 3)
    }

    @Test func statusColumnsAreWholeNumbersAndSynthSaysWhatItWrote() throws {
        let directory = try temporaryDirectory()
        let path = directory.appending(path: "run.csv").path
        let synth = try poise(["synth", "--motion", "demo", "--rate", "50", "-o", path])
        #expect(synth.error.hasPrefix("poise: wrote ") && synth.error.hasSuffix(" to \(path)\n"), "\(synth.error)")
        let run = try poise(["replay", path, "--quiet", "--columns", "status", "-o", "-"])
        let rows = run.text.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(!rows.isEmpty)
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.suffix(2).allSatisfy { Int($0) != nil }, "\(row)")
        }
    }

    // MARK: 9. bench workflow

    @Test func replayAndEvalApplyTheConfigsCalibrationToRawTracesOnce() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory, arguments: ["--errors", "uncalibrated", "--seed", "4"])
        #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("# calibrated=no\n"))
        let config = directory.appending(path: "board.yaml").path
        try poise(["check", "--print-defaults"]).output.write(to: URL(fileURLWithPath: config))
        let calibrate = try poise(["calibrate", "mag", "--trace", trace, "--config", config, "--save"])
        #expect(calibrate.status == 0, "\(calibrate.error)")
        func heading(_ arguments: [String]) throws -> Double {
            let run = try poise(["eval", "--json"] + arguments)
            #expect(run.status == 0, "\(run.error)")
            let json = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            let trials = json?["trials"] as? [[String: Any]]
            return try #require(trials?.first?["heading"] as? Double)
        }
        let raw = try heading([trace])
        let calibrated = try heading([trace, "--config", config])
        #expect(calibrated < raw / 2, "heading RMSE \(raw)° → \(calibrated)°")
        // A trace that says it is calibrated is not corrected again.
        let marked = directory.appending(path: "marked.csv").path
        try String(contentsOfFile: trace, encoding: .utf8).replacingOccurrences(of: "# calibrated=no", with: "# calibrated=yes")
            .write(toFile: marked, atomically: true, encoding: .utf8)
        #expect(try heading([marked, "--config", config]) == raw)
        let replay = try poise(["replay", trace, "--quiet", "--config", config, "-o", "-"])
        #expect(replay.text.contains("# calibrated=yes\n"))
    }

    @Test func plotsNearNinetyDegreesPitchSaySo() throws {
        let directory = try temporaryDirectory()
        let script = directory.appending(path: "up.txt")
        try "rest 1\nrotate x 89 deg over 2 s\nrest 1\n".write(to: script, atomically: true, encoding: .utf8)
        let trace = directory.appending(path: "up.csv").path
        #expect(try poise(["synth", "--script", script.path, "--rate", "50", "-o", trace]).status == 0)
        let estimate = directory.appending(path: "est.csv").path
        #expect(try poise(["replay", trace, "--quiet", "-o", estimate]).status == 0)
        let run = try poise(["plot", estimate, "-o", "-"])
        #expect(run.status == 0)
        #expect(run.error.contains("gimbal lock"))
        #expect(run.text.contains("gimbal lock"))
    }
}

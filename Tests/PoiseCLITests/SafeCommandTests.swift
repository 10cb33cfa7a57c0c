import Foundation
import Testing

/// A sysfs tree with `pwmchip0/pwm1` already exported and running, as a crashed loop leaves it.
private func runningChannel(in directory: URL) throws -> String {
    let root = directory.appending(path: "sys").path
    let channel = root + "/pwmchip0/pwm1"
    try FileManager.default.createDirectory(atPath: channel, withIntermediateDirectories: true)
    for name in ["export", "unexport"] {
        FileManager.default.createFile(atPath: root + "/pwmchip0/" + name, contents: Data())
    }
    for (name, value) in [("period", "2"), ("duty_cycle", "1"), ("enable", "1"), ("polarity", "normal")] {
        FileManager.default.createFile(atPath: channel + "/" + name, contents: Data((value + "\n").utf8))
    }
    return root
}

private func firstLine(_ path: String) -> String {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
}

@Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
func safeDrivesASysfsChannelToItsSafePulseAndLeavesItRunning() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let root = try runningChannel(in: directory)
    let config = directory.appending(path: "poise.yaml").path
    try """
        board: {kind: linux}
        outputs:
          pwm_sysfs_root: \(root)
          channels:
            - {name: servo, kind: pwm, chip: 0, channel: 1, source: pitch, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1500}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    let run = try poise(["safe", "--config", config])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.text == "servo  pwmchip0/pwm1  safe: 1500 µs pulse, enabled\n")
    #expect(run.error.isEmpty)
    #expect(firstLine(root + "/pwmchip0/pwm1/duty_cycle") == "1500000")
    #expect(firstLine(root + "/pwmchip0/pwm1/period") == "20000000")
    #expect(firstLine(root + "/pwmchip0/pwm1/enable") == "1")
    #expect(firstLine(root + "/pwmchip0/unexport") == "", "left exported so the safe pulse continues")
}

@Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
func safeMakesTheRestSafeAndExitsOneWhenAnOutputFails() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let root = try runningChannel(in: directory)
    let config = directory.appending(path: "poise.yaml").path
    try """
        board: {kind: linux}
        outputs:
          pwm_sysfs_root: \(root)
          channels:
            - {name: led, kind: gpio, chip: gpiochip-missing, line: 3, source: fault, safe_value: 1}
            - {name: wheel, kind: pwm, chip: 0, channel: 1, period_us: 50, source: left_wheel_duty}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    let run = try poise(["safe", "--config", config])
    #expect(run.status == 1)
    #expect(run.text == "led  gpiochip-missing line 3  FAILED (see below)\nwheel  pwmchip0/pwm1  safe: no pulse, disabled\n")
    #expect(run.error.hasPrefix("poise: output led (gpiochip-missing line 3): open chip gpiochip-missing: No such file or directory (ENOENT)"))
    #expect(firstLine(root + "/pwmchip0/pwm1/enable") == "0")
    #expect(firstLine(root + "/pwmchip0/pwm1/duty_cycle") == "0")
}

@Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
func safeOnTheSimulatedBoardAndItsErrors() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = directory.appending(path: "poise.yaml").path
    try """
        outputs:
          pca9685: {frequency_hz: 400}
          channels:
            - {name: esc1, kind: pca9685, channel: 0, source: motor1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1000}
            - {name: stby, kind: gpio, chip: pinctrl-rp1, line: 22, source: armed}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    let run = try poise(["safe", "--config", config])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.text == "esc1  PCA9685 channel 0  safe: 1000 µs pulse\nstby  pinctrl-rp1 line 22  safe: level 0, released\n")

    let missing = try poise(["safe", "--config", directory.appending(path: "absent.yaml").path])
    #expect(missing.status == 1 && missing.error.hasSuffix("absent.yaml: no such file\n"))
    let usage = try poise(["safe"])
    #expect(usage.status == 64 && usage.error.contains("Missing expected argument '--config <config>'"))
}

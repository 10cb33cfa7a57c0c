import Foundation
import PoiseIO
import Testing

/// A fake sysfs tree: `pwmchip0/export` and, when `exported`, `pwmchip0/pwm0/*`.
private func makeSysfs(exported: Bool) throws -> String {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("poise-pwm-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root + "/pwmchip0", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: root + "/pwmchip0/export", contents: Data())
    if exported {
        try FileManager.default.createDirectory(atPath: root + "/pwmchip0/pwm0", withIntermediateDirectories: true)
        for name in ["period", "duty_cycle", "enable"] {
            _ = FileManager.default.createFile(atPath: root + "/pwmchip0/pwm0/" + name, contents: Data())
        }
    }
    return root
}

private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "<missing>"
}

@Test func pwmConfiguresPeriodDutyAndEnableThenReturnsToSafeValue() throws {
    let root = try makeSysfs(exported: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    do {
        let pwm = try PWMOutput(chip: 0, channel: 0, periodNanoseconds: 20_000_000,
                                safeDutyNanoseconds: 1_500_000, sysfsRoot: root)
        #expect(contents(root + "/pwmchip0/pwm0/period") == "20000000")
        #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "1500000")
        #expect(contents(root + "/pwmchip0/pwm0/enable") == "1")
        try pwm.setDuty(fraction: 0.1)
        #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "2000000")
        #expect(throws: PWMError.self) { try pwm.setDuty(nanoseconds: 30_000_000) }
        pwm.release()
    }
    #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "1500000")
    #expect(contents(root + "/pwmchip0/pwm0/enable") == "0")
}

@Test func pwmExportsTheChannelAndReportsWhenNothingAppears() throws {
    let root = try makeSysfs(exported: false)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let error = #expect(throws: PWMError.self) {
        _ = try PWMOutput(chip: 0, channel: 0, periodNanoseconds: 1_000_000, sysfsRoot: root)
    }
    #expect(contents(root + "/pwmchip0/export") == "0")
    #expect(error?.description == "\(root)/pwmchip0/pwm0: exporting channel 0 did not create the directory")
}

@Test func pwmMissingChipSaysHowToEnableIt() throws {
    let error = #expect(throws: PWMError.self) {
        _ = try PWMOutput(chip: 3, channel: 0, periodNanoseconds: 1_000_000, sysfsRoot: "/nonexistent-sysfs")
    }
    #expect(error?.description.contains("dtoverlay=pwm") == true)
}

@Test func gpioMissingChipIsAClearError() {
    let error = #expect(throws: GPIOError.self) {
        _ = try GPIOOutput(chip: "gpiochip-nonexistent", line: 17)
    }
    #expect(error?.description.hasPrefix("open chip gpiochip-nonexistent:") == true)
}

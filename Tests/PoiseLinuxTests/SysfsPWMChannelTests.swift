import Foundation
import PoiseHAL
import PoiseLinux
import PoiseOutputs
import Testing

/// The kernel's side of a sysfs PWM tree in a temporary directory: writing `export` creates
/// the channel's files (as the PWM core does), each write replaces the file's contents, and
/// every write is logged and counted. Files go through the real ``LinuxPWMFiles``.
private struct FakeKernel: PWMFileSystem {
    var base = LinuxPWMFiles()
    var paths: [CInt: String] = [:]
    var log: [String] = []
    let root: String
    /// When false, export creates nothing (a channel udev never finishes).
    var exportWorks = true

    func exists(_ path: String) -> Bool { base.exists(path) }

    mutating func openForWriting(_ path: String) -> Result<CInt, Errno> {
        let result = base.openForWriting(path)
        if case .success(let fd) = result { paths[fd] = path }
        return result
    }

    mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        if let errno = base.write(fd, bytes) { return errno }
        _ = ftruncate(fd, off_t(bytes.count))  // sysfs replaces the value; a plain file would keep a tail
        let path = paths[fd] ?? "?"
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        log.append("\(path.dropFirst(root.count + 1))=\(text)")
        if path.hasSuffix("/export"), exportWorks, let channel = Int(text) {
            makeChannel(String(path.dropLast("/export".count)) + "/pwm\(channel)")
        } else if path.hasSuffix("/unexport"), let channel = Int(text) {
            try? FileManager.default.removeItem(atPath: String(path.dropLast("/unexport".count)) + "/pwm\(channel)")
        }
        return nil
    }

    mutating func close(_ fd: CInt) {
        paths[fd] = nil
        base.close(fd)
    }

    mutating func pause(milliseconds: Int) {}

    func makeChannel(_ directory: String) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["period", "duty_cycle", "enable", "polarity"] {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("0\n".utf8))
        }
    }
}

/// `pwmchip0` with `export`/`unexport` and nothing exported.
private func makeTree() throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poise-pwm-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root + "/pwmchip0", withIntermediateDirectories: true)
    for name in ["export", "unexport"] {
        _ = FileManager.default.createFile(atPath: root + "/pwmchip0/" + name, contents: Data())
    }
    return root
}

private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "<missing>"
}

@Test func exportCreatesTheChannelAndWritesComeInAnOrderTheKernelAccepts() throws {
    let root = try makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    var files = FakeKernel(root: root)
    let pwm = try SysfsPWMChannel(chip: 0, channel: 1, periodNanoseconds: 20_000_000, polarity: .inversed,
                                  safeDutyNanoseconds: 1_500_000, sysfsRoot: root, files: &files)
    #expect(files.log == [
        "pwmchip0/export=1",
        "pwmchip0/pwm1/enable=0",
        "pwmchip0/pwm1/polarity=inversed",
        "pwmchip0/pwm1/duty_cycle=0",
        "pwmchip0/pwm1/period=20000000",
        "pwmchip0/pwm1/duty_cycle=1500000",
        "pwmchip0/pwm1/enable=1",
    ])
    #expect(contents(root + "/pwmchip0/pwm1/duty_cycle") == "1500000")
    #expect(contents(root + "/pwmchip0/pwm1/polarity") == "inversed")
    try pwm.release(unexport: true, files: &files)
    #expect(files.log.suffix(2) == ["pwmchip0/pwm1/duty_cycle=1500000", "pwmchip0/unexport=1"])
    #expect(!FileManager.default.fileExists(atPath: root + "/pwmchip0/pwm1"))
    #expect(files.paths.isEmpty, "every descriptor is closed")
}

@Test func eachDutyChangeIsOnePwriteOfDecimalText() throws {
    let root = try makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    var files = FakeKernel(root: root)
    let pwm = try SysfsPWMChannel(chip: 0, channel: 0, periodNanoseconds: 1_000_000, sysfsRoot: root, files: &files)
    let before = files.base.writes
    #expect(pwm.setDuty(nanoseconds: 250_000, files: &files) == nil)
    #expect(files.base.writes == before + 1)
    #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "250000")
    #expect(pwm.setDuty(nanoseconds: 5_000_000, files: &files) == nil, "clamped to the period")
    #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "1000000")
    #expect(files.base.writes == before + 2)
}

@Test func safeDutyOfZeroDisablesOnRelease() throws {
    let root = try makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    var files = FakeKernel(root: root)
    let pwm = try SysfsPWMChannel(chip: 0, channel: 0, periodNanoseconds: 50_000, sysfsRoot: root, files: &files)
    _ = pwm.setDuty(nanoseconds: 20_000, files: &files)
    try pwm.release(unexport: false, files: &files)
    #expect(contents(root + "/pwmchip0/pwm0/duty_cycle") == "0")
    #expect(contents(root + "/pwmchip0/pwm0/enable") == "0")
    #expect(FileManager.default.fileExists(atPath: root + "/pwmchip0/pwm0"), "left exported")
}

@Test func missingChipSaysHowToEnableIt() {
    var files = LinuxPWMFiles()
    let error = #expect(throws: PWMError.self) {
        _ = try SysfsPWMChannel(chip: 3, channel: 0, periodNanoseconds: 1_000_000, sysfsRoot: "/nonexistent-sysfs", files: &files)
    }
    #expect(error?.description.contains("dtoverlay=pwm") == true)
}

@Test func exportThatNeverAppearsTimesOutWithAClearMessage() throws {
    let root = try makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    var files = FakeKernel(root: root, exportWorks: false)
    let error = #expect(throws: PWMError.self) {
        _ = try SysfsPWMChannel(chip: 0, channel: 0, periodNanoseconds: 1_000_000, sysfsRoot: root, files: &files)
    }
    #expect(error?.description.hasPrefix("\(root)/pwmchip0/pwm0/period: not writable 1000 ms after export") == true)
}

@Test func decimalTextHasNoLeadingZerosAndEndsInANewline() {
    for value: UInt64 in [0, 7, 10, 1_500_000, UInt64.max] {
        var text = DecimalText(value)
        let string = text.withBytes { String(decoding: $0, as: UTF8.self) }
        #expect(string == "\(value)\n")
    }
}

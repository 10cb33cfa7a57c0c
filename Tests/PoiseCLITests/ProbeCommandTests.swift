import Foundation
import Testing

/// Runs the built `poise` executable; returns exit status, stdout and stderr.
private func runPoise(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    var directory = Bundle.main.bundleURL
    if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
    let process = Process()
    process.executableURL = directory.appendingPathComponent("poise")
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Test func probeSimulatedBoardPrintsGridChipMagnetometerAndSamples() throws {
    let result = try runPoise(["probe", "--board", "sim"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let expectedHead = [
        "Bus sim (I2C, SMBus quick, SMBus read byte, SMBus read byte data, SMBus write byte data, SMBus I2C block read)",
        "     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f",
        "00:          -- -- -- -- -- -- -- -- -- -- -- -- --",
        "10: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --",
        "20: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --",
        "30: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --",
        "40: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --",
        "50: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --",
        "60: -- -- -- -- -- -- -- -- 68 -- -- -- -- -- -- --",
        "70: -- -- -- -- -- -- -- --",
        "0x68: WHO_AM_I 0x71 → MPU-9250",
        "Magnetometer: AK8963 at 0x0C (WIA 0x48), ASA 0xB0 0xB3 0xA7",
        "Settings: ±16 g, ±2000 °/s, output 1000 Hz, read at 200 Hz, mounting +x+y+z",
        "Calibration: none (give --config FILE to apply its sensor.calibration)",
        "      t s   ax m/s²   ay m/s²   az m/s²  gx rad/s  gy rad/s  gz rad/s     mx µT     my µT     mz µT      T °C",
    ]
    #expect(Array(lines.prefix(expectedHead.count)) == expectedHead)
    // Five sample rows of eleven numbers, then the final newline.
    let rows = lines.dropFirst(expectedHead.count).filter { !$0.isEmpty }
    #expect(rows.count == 5)
    for row in rows {
        let numbers = row.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 11)
        // Resting flat: gravity on z (the simulated chip has scale and bias errors).
        #expect(numbers.count == 11 && abs(numbers[3] - 9.8) < 0.6)
    }
    #expect(result.stderr.isEmpty)
}

@Test func probeMissingBusExplainsHowToEnableI2C() throws {
    let result = try runPoise(["probe", "--bus", "/dev/i2c-nonexistent"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("poise: open /dev/i2c-nonexistent: No such file or directory (ENOENT)\n"))
    #expect(result.stderr.contains("dtparam=i2c_arm=on"))
    #expect(result.stderr.contains("sudo modprobe i2c-dev"))
}

@Test func probeWrongAddressIsAClearError() throws {
    // The simulated chip is wired AD0 low (board.address 0x68): nothing answers at 0x69.
    let result = try runPoise(["probe", "--board", "sim", "--address", "0x69"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("poise: no device answered at 0x69 on sim"))
    let bad = try runPoise(["probe", "--address", "0x99"])
    #expect(bad.status != 0)
}

@Test func calibrateSimulatedBoardNonInteractively() throws {
    let gyro = try runPoise(["calibrate", "gyro", "--board", "sim", "--yes"])
    #expect(gyro.status == 0)
    #expect(gyro.stdout.contains("gyroscope bias (rad/s): 0.02"))
    let accel = try runPoise(["calibrate", "accel", "--board", "sim", "--yes"])
    #expect(accel.status == 0)
    #expect(accel.stdout.contains("accelerometer offset (m/s²):"))
    #expect(accel.stdout.contains("accelerometer scale: 1.01"))
    let mag = try runPoise(["calibrate", "mag", "--board", "sim", "--yes", "--seconds", "40"])
    #expect(mag.status == 0)
    // The simulated board's hard iron is (12, −8, 25) µT.
    let hardIron = mag.stdout.split(separator: "\n").first { $0.hasPrefix("magnetometer hard iron (µT): ") }
    let values = hardIron?.split(separator: " ").compactMap { Double($0) } ?? []
    #expect(values.count == 3)
    if values.count == 3 {
        #expect(abs(values[0] - 12) < 0.5 && abs(values[1] + 8) < 0.5 && abs(values[2] - 25) < 0.5)
    }
}

@Test func calibrateWithoutInputAsksForYes() throws {
    let result = try runPoise(["calibrate", "gyro", "--board", "sim"])
    #expect(result.status == 1)
    #expect(result.stderr == "poise: no input on stdin; pass --yes to run without prompts\n")
}

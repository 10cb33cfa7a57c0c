@testable import PoiseSensors
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseMotion
import PoiseSimulation
import Foundation
import Glibc
import Testing

// A lost sensor's re-initialisation through the loop's tick: it says what it did as plain
// data (the sentences `tick()` logs, word for word), only the first start-up logs from the
// tick itself, and — counted on the tick's thread in a child process with the allocation
// counter preloaded — it allocates nothing once the driver has started.

/// The simulated chip, unpluggable here, where the error is made without a `String` (the
/// simulated chip names its bus from one, which allocates), and with an AK8963 that may answer
/// a wrong identity.
struct UnpluggableBus: I2CBus {
    var chip: SimulatedMPU9250<StaticPose>
    /// Nothing answers (EREMOTEIO), as if unplugged.
    var unplugged = false
    /// The AK8963 does not answer at 0x0C.
    var magnetometerAbsent = false
    /// What the AK8963 answers for WIA instead of its own 0x48.
    var magnetometerIdentity: UInt8? = nil
    /// Transfers that failed (threw).
    var failed = 0

    var path: String { chip.path }
    var functionality: I2CFunctionality { chip.functionality }

    mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if unplugged || (magnetometerAbsent && address == AK8963.address) {
            failed += 1
            throw I2CError(I2CError.Operation(writing: write, reading: read.count), address: address,
                           bus: I2CBusName(constant: "sim"), errno: .remoteIO)
        }
        if let identity = magnetometerIdentity, address == AK8963.address, write.count == 1,
           write[0] == AK8963Register.deviceID.rawValue, read.count == 1 {
            read[0] = identity
            return
        }
        try chip.transfer(address: address, write: write, read: read)
    }
}

/// What happens to the chip, tick by tick (100 Hz; lost after 20 identical reads or 3 failed
/// ticks, re-initialised every 50 ticks): stuck data; a chip reset (a brown-out); stuck data
/// while the chip answers a foreign WHO_AM_I (re-initialisations fail, then one succeeds);
/// with `unplugging`, unplugged for 1.5 s (the same with failed transfers); stuck data while
/// the magnetometer answers a foreign WIA, or with `unplugging` none at all (re-initialised 6D).
/// Without `unplugging` no transfer fails: a debug build boxes a thrown error once on its way
/// through the standard library's pointer helpers (the release build's check sees that away).
private func scenario(_ tick: Int, _ bus: inout UnpluggableBus, unplugging: Bool) {
    switch tick {
    case 100: bus.chip.faults.stuckData = true
    case 140: bus.chip.faults.stuckData = false
    case 300: bus.chip.powerOnReset()
    case 450:
        bus.chip.faults.stuckData = true
        bus.chip.faults.whoAmI = 0x42
    case 490: bus.chip.faults.stuckData = false
    case 600: bus.chip.faults.whoAmI = nil
    case 700: bus.unplugged = unplugging
    case 850: bus.unplugged = false
    case 900:
        bus.chip.faults.stuckData = true
        if unplugging { bus.magnetometerAbsent = true } else { bus.magnetometerIdentity = 0 }
    case 940: bus.chip.faults.stuckData = false
    default: break
    }
}

private let scenarioTicks = 1200
private let settings = testSettings { $0.lostAfterFailures = 3; $0.reinitInterval = 0.5; $0.stuckAfterIdenticalReads = 20 }

private func driver(_ log: DriverLog) -> MPU9250<UnpluggableBus> {
    var errors = SensorErrorModel.typical
    errors.seed = 7
    return MPU9250(bus: UnpluggableBus(chip: SimulatedMPU9250(motion: StaticPose(), errors: errors)), settings: settings, logger: log)
}

/// Moves the scenario and the chip's time on to tick `index`.
private func prepare(_ index: Int, _ driver: inout MPU9250<UnpluggableBus>, unplugging: Bool = true) {
    scenario(index, &driver.bus, unplugging: unplugging)
    driver.bus.chip.advance(to: Double(index) / settings.tickRate)
}

/// The driver's log as sentences with their levels, at every level.
private final class Sentences: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [SensorMessage] = []
    var all: [SensorMessage] { lock.withLock { storage } }
    func append(_ message: SensorMessage) { lock.withLock { storage.append(message) } }
    var log: DriverLog { DriverLog(minimumLevel: .debug) { [self] level, text in append(SensorMessage(level, text)) } }
}

@Test func reinitialisationSaysTheSameWordsAsPlainDataAndTheFirstStartLogsItself() {
    // The tools' way: `tick()` logs everything itself.
    let logged = Sentences()
    var tools = driver(logged.log)
    // The loop's way: `loopTick()` logs only the first start-up; the rest comes back in the
    // ticks' notices, worded as a reporter words them.
    let direct = Sentences()
    var loop = driver(direct.log)
    var reported: [SensorMessage] = []
    var firstStart = 0
    for index in 1...scenarioTicks {
        prepare(index, &tools)
        prepare(index, &loop)
        tools.tick()
        let tick = loop.loopTick()
        reported += settings.messages(for: tick.notices, bus: loop.bus.path)
        if index == 50 { firstStart = direct.all.count }
    }
    #expect(loop.counters == tools.counters)
    #expect(loop.counters.reinitSuccesses == 5, "\(loop.counters)")
    // The first start-up: logged by the driver itself, before the loop's first sample.
    let first = direct.all.map(\.text)
    #expect(first.count == firstStart && first.count == 3, "\(first)")
    #expect(first.first == "found MPU-9250 (WHO_AM_I 0x71) at 0x68 on sim")
    #expect(first.last?.hasPrefix("configured: clock: PLL, awake, all accel and gyro axes on, ") == true)
    // Then every sentence `tick()` logs, at its level, through the notices.
    #expect(direct.all + reported == logged.all)
    let words = reported.map(\.text)
    #expect(words.contains { $0.hasPrefix("sensor recovered after re-initialisation (was: sensor lost: stuck data: ") })
    #expect(words.contains { $0.hasPrefix("sensor recovered after re-initialisation (was: chip reset: ") })
    let foreign = "the chip at 0x68 answered WHO_AM_I 0x42, not an MPU-9250 (0x71) or a relative"
    #expect(words.contains("sensor unavailable: \(foreign); retrying every 0.5 s"), "\(words)")
    #expect(words.contains("sensor recovered after re-initialisation (was: \(foreign))"))
    #expect(words.contains("sensor unavailable: reset failed: write 0x80 to 0x6B of 0x68 on sim: Remote I/O error (EREMOTEIO); retrying every 0.5 s"),
            "\(words)")
    #expect(reported.contains(SensorMessage(.debug, "re-initialisation failed again: reset failed: write 0x80 to 0x6B of 0x68 on sim: Remote I/O error (EREMOTEIO)")))
    #expect(words.contains("sensor recovered after re-initialisation (was: reset failed: write 0x80 to 0x6B of 0x68 on sim: Remote I/O error (EREMOTEIO))"))
    #expect(words.filter { $0.hasPrefix("AK8963 at 0x0C: ASA ") && $0.hasSuffix(" Hz, read every 1 ticks") }.count == 4, "\(words)")
    #expect(words.contains("no AK8963 answered at 0x0C (read 1 byte at 0x00 from 0x0C on sim: Remote I/O error (EREMOTEIO)); continuing 6D without the magnetometer"))
    #expect(words.filter { $0.hasPrefix("configured: ") }.count == 5)
    #expect(words.last?.hasSuffix("; 6D") == true, "\(words.last ?? "")")
    #expect(loop.state == .running && !loop.hasMagnetometer)
    // The typed faults as `tick()`'s driver has them.
    #expect(loop.fault == nil && tools.fault == nil)
    #expect(loop.magnetometerFault != nil && loop.magnetometerFault == tools.magnetometerFault)
}

@Test func startFaultsRoundTripThroughPlainData() {
    let failed = I2CError(.write(register: 0x1B, value: 0x18), address: 0x68, bus: "/dev/i2c-1", errno: .ioError)
    let settings = MPU9250Settings()
    let gyro = settings.setting(MPU9250Register.gyroConfig.rawValue)
    #expect(gyro.purpose == "gyro ±2000 °/s")
    let cases: [(SensorNotices.StartFault, MPU9250Error)] = [
        (StartStep.reset.fault(failed), .reset(failed)),
        (StartStep.noAnswer.fault(failed), .noAnswer(failed)),
        (StartStep.configurationWrite.fault(register: 0x1B, failed), .configurationWrite(gyro, failed)),
        (StartStep.configurationReadback.fault(register: 0x1B, failed), .configurationReadback(gyro, failed)),
        (StartStep.configurationMismatch.fault(register: 0x1B, read: 0), .configurationMismatch(gyro, read: 0)),
        (StartStep.fifoReset.fault(failed), .fifoReset(failed)),
    ]
    for (plain, typed) in cases { #expect(settings.startError(plain, bus: "/dev/i2c-1") == typed) }
    var whoAmI = StartStep.whoAmI.fault(register: 0x42)
    whoAmI.transfer.address = 0x68
    #expect(settings.startError(whoAmI, bus: "/dev/i2c-1") == .whoAmI(0x42, address: 0x68))
    for operation in [I2CError.Operation.open, .queryFunctionality, .selectAddress, .read(count: 14, register: 0x3B),
                      .write(register: 0x6B, value: 0x80), .writeBlock(count: 3, register: 0x10)] {
        for address: UInt8? in [nil, 0x0C] {
            let error = I2CError(operation, address: address, bus: "/dev/i2c-3", errno: .remoteIO)
            #expect(plainTransfer(error).error(bus: "/dev/i2c-3") == error)
        }
    }
    #expect(settings.magnetometerError(StartStep.magnetometerDeviceID.fault(register: 0), bus: "sim") == .deviceID(0))
}

/// The per-thread allocation count of Benchmarks/loop/malloc_count.c when it is preloaded
/// (in the child process of `reinitialisationAllocatesNothingOnTheLoopThread` only).
private let threadAllocations: (@convention(c) () -> Int64)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "poise_thread_malloc_count") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> Int64).self)
}()

/// The child's half: the scenario through `loopTick()`, the allocations of each tick counted
/// on this thread from the first sample on, printed as one line for the parent. Does nothing
/// without the counter.
@Test func loopTickAllocationsCountedInAChildProcess() {
    guard let count = threadAllocations else { return }
    var loop = driver(DriverLog(minimumLevel: .debug) { _, _ in })
    var ticks = 0, allocations: Int64 = 0, sampled = false
    var notices: [SensorNotices] = []
    notices.reserveCapacity(scenarioTicks)
    for index in 1...scenarioTicks {
        prepare(index, &loop, unplugging: false)
        let before = count()
        let tick = loop.loopTick()
        let after = count()
        if sampled {
            allocations += after - before
            ticks += 1
            notices.append(tick.notices)
        }
        sampled = sampled || tick.sample != nil
    }
    let words = notices.flatMap { settings.messages(for: $0, bus: loop.bus.path).map(\.text) }
    let recoveries = words.filter { $0.hasPrefix("sensor recovered after re-initialisation (was: ") }.count
    let sixAxes = words.contains { $0.hasPrefix("the device at 0x0C answered WIA 0x00, not an AK8963 (0x48); continuing 6D") }
    print("loop ticks after the first sample: \(ticks); allocations: \(allocations); failed transfers: \(loop.bus.failed); "
          + "re-initialisations: \(loop.counters.reinitAttempts), recovered: \(loop.counters.reinitSuccesses), worded: \(recoveries), 6D: \(sixAxes)")
}

/// Runs the child half in this test binary with the allocation counter preloaded (built here
/// with the C compiler, as scripts/bench-loop builds it): 0 allocations in the ticks after the
/// first sample, through stuck data, a chip reset, failed and successful re-initialisations.
@Test func reinitialisationAllocatesNothingOnTheLoopThread() throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "poise-allocations-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let library = directory.appending(path: "malloc_count.so").path
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compile.arguments = ["cc", "-O2", "-shared", "-fPIC", "-o", library, root.appending(path: "Benchmarks/loop/malloc_count.c").path, "-ldl"]
    try compile.run()
    compile.waitUntilExit()
    try #require(compile.terminationStatus == 0, "cc could not build Benchmarks/loop/malloc_count.c")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--testing-library", "swift-testing", "--filter", "loopTickAllocationsCountedInAChildProcess"]
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = library
    child.environment = environment
    let output = Pipe()
    child.standardOutput = output
    child.standardError = FileHandle.nullDevice
    try child.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    #expect(child.terminationStatus == 0, "\(text)")
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("loop ticks after the first sample: ") }, "\(text)")
    #expect(line.hasSuffix("failed transfers: 0; re-initialisations: 6, recovered: 4, worded: 4, 6D: true"), "\(line)")
    #expect(line.contains("; allocations: 0; "), "\(line)")
}

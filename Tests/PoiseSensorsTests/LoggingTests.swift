@testable import PoiseSensors
import PoiseFlightCore
import PoiseHAL
import PoiseSimulation
import Foundation
import Logging
import Testing
import PoiseLogging

/// Collects log messages (test-only; thread-safe enough for one test's driver).
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [(Logger.Level, String)] = []
    var messages: [(Logger.Level, String)] { lock.withLock { storage } }
    func append(_ level: Logger.Level, _ message: String) { lock.withLock { storage.append((level, message)) } }
}

struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        recorder.append(event.level, event.message.description)
    }
}

@Test func decisionsAreLoggedOnceNotPerTick() {
    let recorder = LogRecorder()
    let logger = Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
    let settings = testSettings { $0.lostAfterFailures = 3; $0.reinitInterval = 0.2 }
    var driver = MPU9250(bus: SimulatedMPU9250(motion: StaticPose(), errors: .typical), settings: settings, logger: DriverLog(logger))
    var clock = 0
    started(&driver, clock: &clock)
    let afterStart = recorder.messages.count
    run(&driver, ticks: 200, from: &clock)
    #expect(recorder.messages.count == afterStart)  // a healthy run logs nothing
    driver.bus.faults.nack = true
    run(&driver, ticks: 1000, from: &clock)  // 10 s unplugged: ~50 re-initialisation attempts
    #expect(driver.counters.reinitAttempts >= 40)
    let outage = recorder.messages.dropFirst(afterStart).filter { $0.0 >= .info }
    // First failure, lost, first failed re-initialisation: three messages, not one per tick.
    #expect(outage.count == 3, "\(outage.map(\.1))")
    #expect(outage.first?.1.hasPrefix("read failed after 2 attempts (burst at 0x3B from 0x68), retrying next tick: ") == true,
            "\(outage.first?.1 ?? "")")
    driver.bus.faults.nack = false
    run(&driver, ticks: 100, from: &clock)
    #expect(driver.state == .running)
    #expect(recorder.messages.contains { $0.1.hasPrefix("sensor recovered after re-initialisation") })
}

/// The loop's tick logs nothing itself: what happened comes back as plain data, worded later
/// by the reporter thread, and says the same as `tick()` would have logged.
@Test func loopTickHandsNoticesBackInsteadOfLogging() {
    let recorder = LogRecorder()
    let logger = Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
    let settings = testSettings { $0.lostAfterFailures = 3 }
    var driver = MPU9250(bus: SimulatedMPU9250(motion: StaticPose(), errors: .typical), settings: settings, logger: DriverLog(logger))
    var clock = 0
    started(&driver, clock: &clock)
    let afterStart = recorder.messages.count
    driver.bus.faults.nack = true
    var seen: [SensorNotices] = []
    for _ in 0..<3 {
        clock += 1
        driver.bus.advance(to: Double(clock) / settings.tickRate)
        let tick = driver.loopTick()
        #expect(tick.sample == nil)
        seen.append(tick.notices)
    }
    #expect(recorder.messages.count == afterStart)   // nothing logged by the tick itself
    #expect(seen[0].kinds == .readFailed && seen[0].errno != 0)
    #expect(seen[1].isEmpty)
    #expect(seen[2].kinds == .lostAfterFailedReads && seen[2].failures == 3)
    #expect(driver.state == .lost)
    let words = settings.messages(for: seen[2]).map(\.text)
    #expect(words.count == 1 && words[0].hasPrefix("sensor lost: 3 consecutive failed reads: "), "\(words)")
    #expect(driver.lostReason == words[0])
}

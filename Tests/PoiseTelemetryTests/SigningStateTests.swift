import Foundation
import Testing
import PoiseDeviceSettings
@testable import PoiseTelemetry

/// No replay across restarts or wrong clocks, through the link's seam (``TelemetryReceiver``
/// fed datagrams, its ``MAVLinkSigningStore`` in a temporary state directory), and the key
/// file's one format. Counts, never times.
struct SigningStateTests {
    static let key = try! MAVLinkSigningKey(bytes: (0 ..< 32).map { UInt8($0 * 3 + 1) })

    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appending(path: "poise-signing-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// A signed COMMAND_LONG ARM (or DISARM) stamped at `unixTime`.
    static func signedArm(_ arm: Bool, unixTime: Double, link: UInt8 = 1) -> [UInt8] {
        var framer = MAVLinkFramer(systemID: 255, componentID: 190)
        framer.incompatFlags = MAVLinkFramer.signedFlag
        var signer = MAVLinkSigner(key: key)
        signer.linkID = link
        var m = CommandLong()
        m.command = TelemetryReceiver.armDisarm
        m.targetSystem = 1
        m.params[0] = arm ? 1 : 0
        var buffer = [UInt8](repeating: 0, count: 300)
        return buffer.withUnsafeMutableBytes { raw in
            let length = signer.sign(raw, length: framer.encode(m, into: raw), unixTime: unixTime)
            return Array(raw[0 ..< length])
        }
    }

    final class ArmCounter: GroundStation, @unchecked Sendable {
        var arms = 0
        var parameterNames: [String] { ["BAL_PIT_P"] }
        func parameterValue(at index: Int) -> Float { 1 }
        func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal> { .success(value) }
        func unknownParameter(_ name: String) -> String? { nil }
        func storeParameters() -> CommandOutcome { CommandOutcome(.accepted) }
        func arm(_ arm: Bool) -> CommandOutcome { if arm { arms += 1 }; return CommandOutcome(.accepted) }
        func manualControl(_ message: ManualControlMessage) {}
    }

    /// One "run": a receiver over a store of `directory` (nil: memory only, as before).
    static func run(_ station: ArmCounter, directory: String?) throws -> TelemetryReceiver {
        let sink = try UDPSocket(listeningOn: 0)
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: sink.localPort), settings: TelemetrySettings())
        let store = try directory.map { try MAVLinkSigningStore(directory: $0) }
        sender.sign(with: key, after: store?.startingState.sent ?? 0)
        let view = TelemetryReceiver.TelemetrySettingsView(systemID: 1, componentID: 1, acceptCommands: true, maximumRate: 1000)
        return TelemetryReceiver(sender: sender, station: station, settings: view, key: key, store: store)
    }

    @Test func aCapturedArmIsRefusedAfterARestart() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let captured = Self.signedArm(true, unixTime: TelemetrySender.unixTime())
        let station = ArmCounter()
        let first = try Self.run(station, directory: directory)
        ReceiverWorkTests.feed(first, captured)
        #expect(station.arms == 1)
        first.stop()   // the end of the run: the state written, marked clean
        // The next run, same key, same state directory: the captured frame is refused.
        let second = try Self.run(station, directory: directory)
        ReceiverWorkTests.feed(second, captured)
        #expect(station.arms == 1 && second.received.refused == 1)
        // A fresh frame of the same stream is taken.
        ReceiverWorkTests.feed(second, Self.signedArm(true, unixTime: TelemetrySender.unixTime() + 1))
        #expect(station.arms == 2)
        second.stop()
        // Without the state (memory only, as before), the same capture would have armed again.
        let forgetful = try Self.run(station, directory: nil)
        ReceiverWorkTests.feed(forgetful, captured)
        #expect(station.arms == 3)
    }

    /// A run that crashed after accepting a frame and before writing it: at the next start
    /// each stream's stored timestamp counts ``MAVLinkSigningStore/uncleanMargin`` later.
    @Test func aCrashedRunsLastFramesAreRefusedToo() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let now = TelemetrySender.unixTime()
        let station = ArmCounter()
        let first = try Self.run(station, directory: directory)
        ReceiverWorkTests.feed(first, Self.signedArm(true, unixTime: now))
        first.persistSigningState(now: 1e9)   // a write while running (not clean) ...
        ReceiverWorkTests.feed(first, Self.signedArm(true, unixTime: now + 1))  // ... then one more frame, and a crash
        #expect(station.arms == 2)
        let second = try Self.run(station, directory: directory)
        ReceiverWorkTests.feed(second, Self.signedArm(true, unixTime: now + 1))
        #expect(station.arms == 2 && second.received.refused == 1)
    }

    /// A board whose clock is a day behind (no RTC, no network time yet) takes neither an
    /// earlier run's frame nor, through ``MAVLinkSignatureChecker/clockFloor``, a year-ahead one.
    @Test func aWrongBoardClockMakesNoOldFrameNew() throws {
        let now = 1_800_000_000.0
        let old = Self.signedArm(true, unixTime: now - 72)
        guard case .success(let (frame, _)) = MAVLinkDecoder.decode(old),
              case .success(let (fresh, _)) = MAVLinkDecoder.decode(Self.signedArm(true, unixTime: now)) else {
            Issue.record("did not decode")
            return
        }
        var earlier = MAVLinkSignatureChecker(key: Self.key)
        #expect(earlier.check(frame, unixTime: now - 72) == .accepted)
        let state = MAVLinkSigningState(streams: earlier.incoming, clean: true)
        var restarted = MAVLinkSignatureChecker(key: Self.key, state: state)
        #expect(restarted.check(frame, unixTime: now - 86_400) == .replayed)
        // The ground station's clock is right; the board's a day behind: taken, not "ahead".
        #expect(restarted.check(fresh, unixTime: now - 86_400) == .accepted)
    }

    @Test func aTimestampFarAheadIsRefusedAndNotRemembered() throws {
        let now = 1_800_000_000.0
        var checker = MAVLinkSignatureChecker(key: Self.key)
        guard case .success(let (ahead, _)) = MAVLinkDecoder.decode(Self.signedArm(true, unixTime: now + 365 * 86_400)),
              case .success(let (current, _)) = MAVLinkDecoder.decode(Self.signedArm(true, unixTime: now)),
              case .success(let (slightly, _)) = MAVLinkDecoder.decode(Self.signedArm(true, unixTime: now + 60)) else {
            Issue.record("did not decode")
            return
        }
        #expect(checker.check(ahead, unixTime: now) == .replayed)
        #expect(checker.lastRefusalWasAhead && checker.aheadRefusals == 1 && checker.incoming.isEmpty)
        // The stream is not locked: a frame stamped now is taken, and one a minute ahead too.
        #expect(checker.check(current, unixTime: now) == .accepted)
        #expect(checker.check(slightly, unixTime: now) == .accepted)
        #expect(!checker.lastRefusalWasAhead)
    }

    /// Poise's own timestamp never goes back across restarts, even with the clock set back.
    @Test func ownTimestampsNeverGoBackAcrossRestarts() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try MAVLinkSigningStore(directory: directory)
        let used = MAVLinkSigning.timestamp(unixTime: 1_800_000_000)
        first.update(first.state(streams: [:], lastSent: used), now: 0)
        let second = try MAVLinkSigningStore(directory: directory)
        #expect(second.startingState.sent >= used + MAVLinkSigningStore.reservation / 2)
        var signer = MAVLinkSigner(key: Self.key, after: second.startingState.sent)
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = buffer.withUnsafeMutableBytes { signer.sign($0, length: 20, unixTime: 1_700_000_000) }   // a clock years behind
        #expect(signer.lastTimestamp > used)
        // Written at a bounded rate: a second change within the interval waits.
        let state = second.state(streams: [7: 9], lastSent: used)
        #expect(second.update(state, now: 100) && !second.update(second.state(streams: [7: 10], lastSent: used), now: 101))
        #expect(second.writes == 2)   // the start's and one
    }

    @Test(arguments: 0 ..< 50) func theStateFileRoundTrips(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed + 1))
        var state = MAVLinkSigningState(sent: UInt64.random(in: 0 ... (1 << 48), using: &random), clean: seed % 2 == 0)
        for _ in 0 ..< Int.random(in: 0 ... 64, using: &random) {
            state.streams[UInt32.random(in: 0 ... 0xFF_FFFF, using: &random)] = UInt64.random(in: 0 ... (1 << 48), using: &random)
        }
        #expect(try MAVLinkSigningState(parsing: state.text) == state)
    }

    @Test func aBrokenStateFileStopsTheStartWithItsLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "sent = 12\nstream.1.2 = 5\n".write(toFile: directory + "/" + MAVLinkSigningStore.fileName, atomically: true, encoding: .utf8)
        #expect { try MAVLinkSigningStore(directory: directory) } throws: { "\($0)".contains("line 2") }
        #expect { try MAVLinkSigningStore(directory: directory + "/none") } throws: { "\($0)".contains("No such file") }
    }
}

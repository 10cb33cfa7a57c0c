import Testing
import PoiseDeviceSettings
@testable import PoiseTelemetry

/// The receive path authenticates before it works and its rate limit counts frames. Asserted by
/// counting what the station is asked and what is handled, never by timing.
struct ReceiverWorkTests {
    /// A station that counts every question.
    final class CountingStation: GroundStation, @unchecked Sendable {
        var namesAsked = 0, unknownAsked = 0, sets = 0, values = 0, disarms = 0
        var parameterNames: [String] { namesAsked += 1; return ["BAL_PIT_P", "SAFE_ARM_TILT"] }
        func parameterValue(at index: Int) -> Float { values += 1; return 1 }
        func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal> { sets += 1; return .success(value) }
        func unknownParameter(_ name: String) -> String? { unknownAsked += 1; return name == "LOOP_RT" ? "restart to change" : nil }
        func storeParameters() -> CommandOutcome { CommandOutcome(.accepted) }
        func arm(_ arm: Bool) -> CommandOutcome { if !arm { disarms += 1 }; return CommandOutcome(.accepted) }
        func manualControl(_ message: ManualControlMessage) {}
    }

    static func receiver(_ station: CountingStation, rate: Double, key: MAVLinkSigningKey? = nil) throws -> TelemetryReceiver {
        let sink = try UDPSocket(listeningOn: 0)
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: sink.localPort), settings: TelemetrySettings())
        let view = TelemetryReceiver.TelemetrySettingsView(systemID: 1, componentID: 1, acceptCommands: true, maximumRate: rate)
        return TelemetryReceiver(sender: sender, station: station, settings: view, key: key)
    }

    /// One datagram holding `count` frames of `message` (unsigned).
    static func datagram<M: MAVLinkMessage>(_ message: M, count: Int) -> [UInt8] {
        var framer = MAVLinkFramer(systemID: 255, componentID: 190)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 300)
        for _ in 0 ..< count {
            let length = buffer.withUnsafeMutableBytes { framer.encode(message, into: $0) }
            bytes += buffer[0 ..< length]
        }
        return bytes
    }

    static func paramSet(_ name: String) -> ParamSet {
        var m = ParamSet()
        m.paramID = MAVLinkText.bytes(name)
        m.paramValue = 5
        return m
    }

    static func feed(_ receiver: TelemetryReceiver, _ bytes: [UInt8]) {
        var padded = bytes + [UInt8](repeating: 0, count: max(0, TelemetryReceiver.bufferLength - bytes.count))
        padded.withUnsafeMutableBytes { receiver.handle(datagram: UnsafeRawBufferPointer($0), length: bytes.count, now: receiver.lastRefill) }
    }

    @Test func unsignedFramesCostNoLookupWhenTheLinkIsSigned() throws {
        let station = CountingStation()
        let receiver = try Self.receiver(station, rate: 10_000, key: try MAVLinkSigningKey(bytes: (0 ..< 32).map { UInt8($0) }))
        let namesAtStart = station.namesAsked
        for name in ["JUNK_NAME_\(7)", "LOOP_RT", "BAL_PIT_P"] {
            Self.feed(receiver, Self.datagram(Self.paramSet(name), count: 28))
        }
        #expect(receiver.received.refused == 84)
        // Nothing asked of the station per frame: no schema lookup, no name list, no write.
        #expect(station.unknownAsked == 0 && station.sets == 0 && station.namesAsked == namesAtStart)
        // A listed name still hears why (and its value); junk and restart-only names nothing.
        #expect(station.values == 28)
    }

    @Test func theRateLimitCountsFramesNotDatagrams() throws {
        let station = CountingStation()
        let receiver = try Self.receiver(station, rate: 10)
        Self.feed(receiver, Self.datagram(Self.paramSet("BAL_PIT_P"), count: 28))
        #expect(station.sets == 10)
        #expect(receiver.received.handled == 10 && receiver.received.rateLimited == 18)
        // Nothing left: the next datagram is not even decoded.
        Self.feed(receiver, Self.datagram(ParamRequestList(), count: 20))
        #expect(station.values == 10 && receiver.received.rateLimited == 19)
    }

    @Test func requestListsInOneDatagramAreLimitedToo() throws {
        let station = CountingStation()
        let receiver = try Self.receiver(station, rate: 5)
        Self.feed(receiver, Self.datagram(ParamRequestList(), count: 40))
        // 5 lists answered (2 values each), 35 dropped: not 40 lists' worth of replies.
        #expect(station.values == 10 && receiver.received.rateLimited == 35)
    }

    static let key = try! MAVLinkSigningKey(bytes: (0 ..< 32).map { UInt8($0) })

    /// A signed DISARM, stamped now.
    static func signedDisarm() -> [UInt8] {
        var framer = MAVLinkFramer(systemID: 255, componentID: 190)
        framer.incompatFlags = MAVLinkFramer.signedFlag
        var signer = MAVLinkSigner(key: key)
        var m = CommandLong()
        m.command = TelemetryReceiver.armDisarm
        m.targetSystem = 1
        var buffer = [UInt8](repeating: 0, count: 300)
        return buffer.withUnsafeMutableBytes { raw in
            let length = signer.sign(raw, length: framer.encode(m, into: raw), unixTime: TelemetrySender.unixTime())
            return Array(raw[0 ..< length])
        }
    }

    /// Unsigned frames drain the shared tokens; a signed DISARM still gets through on its own.
    @Test func aSignedDisarmGetsThroughAFloodOfUnsignedFrames() throws {
        let station = CountingStation()
        let receiver = try Self.receiver(station, rate: 10, key: Self.key)
        for _ in 0 ..< 5 { Self.feed(receiver, Self.datagram(Self.paramSet("JUNK_NAME"), count: 28)) }
        #expect(receiver.received.refused == 10 && receiver.received.rateLimited == 130)
        Self.feed(receiver, Self.signedDisarm())
        #expect(station.disarms == 1)
        // The flood goes on: its frames find no shared token, and cost the station nothing.
        Self.feed(receiver, Self.datagram(Self.paramSet("LOOP_RT"), count: 28))
        #expect(receiver.received.rateLimited == 158 && station.unknownAsked == 0)
    }

    /// On a signed link a parameter request is answered only when signed.
    @Test func anUnsignedRequestOnASignedLinkIsNotAnswered() throws {
        let station = CountingStation()
        let receiver = try Self.receiver(station, rate: 100, key: Self.key)
        Self.feed(receiver, Self.datagram(ParamRequestList(), count: 3))
        var read = ParamRequestRead()
        read.paramIndex = -1
        read.paramID = MAVLinkText.bytes("BAL_PIT_P")
        Self.feed(receiver, Self.datagram(read, count: 3))
        #expect(station.values == 0 && receiver.received.refused == 6)
        var framer = MAVLinkFramer(systemID: 255, componentID: 190)
        framer.incompatFlags = MAVLinkFramer.signedFlag
        var signer = MAVLinkSigner(key: Self.key)
        var buffer = [UInt8](repeating: 0, count: 300)
        let signed = buffer.withUnsafeMutableBytes { raw in
            Array(raw[0 ..< signer.sign(raw, length: framer.encode(ParamRequestList(), into: raw), unixTime: TelemetrySender.unixTime())])
        }
        Self.feed(receiver, signed)
        #expect(station.values == 2)
    }
}

#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseThreads
import Synchronization

/// The ground station's side of the link: reads the telemetry socket on its own ordinary
/// thread (never the tick's), decodes, checks who may do what, and answers through the
/// sender (one framer numbers and signs every frame of the link).
///
/// The socket is the sender's, connected to the ground station's address: the kernel hands
/// it only datagrams from that address and port (QGroundControl and pymavlink's `udpin:`
/// answer from the port they listen on), and it is bound to no wildcard address.
///
/// Bounded everywhere: one fixed receive buffer (a longer datagram is cut and counted as
/// oversized), a token bucket of `telemetry.max_messages_per_s` frames (a burst of one
/// second's worth; a datagram without a frame costs one too), the sender's bounded outbox. A
/// datagram that is not MAVLink, or not a message Poise takes, is counted and ignored.
///
/// Authenticate first, then work: a frame's signature (or, unsigned, whether it may command) is
/// checked before any parameter name is looked up, and the names are indexed once, so a frame
/// that may not act costs a hash lookup at most.
public final class TelemetryReceiver: @unchecked Sendable {
    /// What the receive path has seen; each count only grows.
    public struct Counts: Sendable, Equatable {
        public var datagrams = 0
        /// Frames taken (decoded, allowed and handled).
        public var handled = 0
        /// Datagrams with a frame that did not decode (garbage, bad checksum, truncated).
        public var malformed = 0
        /// Datagrams longer than the receive buffer.
        public var oversized = 0
        /// Frames of a message Poise does not take, or addressed to another system.
        public var ignored = 0
        /// Frames beyond the rate limit (and datagrams that arrived with no token left, undecoded).
        public var rateLimited = 0
        /// Commands, parameter writes and setpoints refused: unsigned, badly signed, replayed,
        /// or (without a key) from a link that may not command.
        public var refused = 0
    }

    public static let bufferLength = 1024

    let sender: TelemetrySender
    let station: GroundStation
    let settings: TelemetrySettingsView
    var checker: MAVLinkSignatureChecker?
    let peerIsLoopback: Bool
    let counts = Mutex(Counts())
    let worker = WorkerThread(name: "poise-gcs-receive")
    var tokens: Double
    /// A second bucket, as large and refilled as fast, that only frames with a valid signature
    /// may take (on a signed link): unsigned frames never touch it, so a flood of them cannot
    /// hold back a signed DISARM. A frame whose signature fails the check costs a shared token,
    /// or one of these when none is left (so checking signatures stays bounded too).
    var authenticatedTokens: Double
    var lastRefill: Double
    /// The station's parameter names (fixed for a run), and each one's index.
    let names: [String]
    let indexByName: [String: Int]

    /// The settings the receive path reads (a copy of the stream's).
    public struct TelemetrySettingsView: Sendable {
        public var systemID: UInt8
        public var componentID: UInt8
        public var acceptCommands: Bool
        public var maximumRate: Double
        public init(systemID: UInt8, componentID: UInt8, acceptCommands: Bool, maximumRate: Double) {
            self.systemID = systemID
            self.componentID = componentID
            self.acceptCommands = acceptCommands
            self.maximumRate = maximumRate
        }
    }

    /// Where the signing timestamps are kept across runs (nil: in memory only).
    let signingStore: MAVLinkSigningStore?
    /// Says what the operator should know (a timestamp too far ahead); standard error in `poise run`.
    public var log: @Sendable (String) -> Void = { _ in }
    var aheadLogged = 0

    /// - Parameter key: the signing key; with it, every command, parameter write and setpoint
    ///   must be signed (and the sender signs every frame: call `sender.sign(with:)` too).
    /// - Parameter store: with a key, the signing state of earlier runs: the checker starts
    ///   from it and this thread keeps it up to date (call `sender.sign(with:after:)` with its
    ///   ``MAVLinkSigningStore/startingState``'s `sent`).
    public init(sender: TelemetrySender, station: GroundStation, settings: TelemetrySettingsView, key: MAVLinkSigningKey?,
                store: MAVLinkSigningStore? = nil) {
        self.sender = sender
        self.station = station
        self.settings = settings
        signingStore = key == nil ? nil : store
        checker = key.map { key in store.map { MAVLinkSignatureChecker(key: key, state: $0.startingState) } ?? MAVLinkSignatureChecker(key: key) }
        peerIsLoopback = sender.socket.peerIsLoopback
        tokens = settings.maximumRate
        authenticatedTokens = key == nil ? 0 : settings.maximumRate
        lastRefill = Self.monotonicSeconds()
        names = station.parameterNames
        // A loop, not Dictionary(uniquingKeysWith:) over enumerated(): that converts the
        // tuples' labels with a dynamic cast, which Embedded Swift refuses.
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        indexByName = index
    }

    public var received: Counts { counts.withLock { $0 } }

    public func start() { _ = worker.start { [self] in run() } }

    /// Texts for the ground station from another thread (a SIGHUP reload's), sent by this one;
    /// bounded (beyond 16 waiting, dropped).
    let announcements = Mutex<[(severity: UInt8, text: String)]>([])

    /// Tells the ground station `text` (STATUSTEXT) from any thread.
    public func announce(severity: UInt8, _ text: String) {
        announcements.withLock { if $0.count < 16 { $0.append((severity, text)) } }
    }

    func sendAnnouncements() {
        let waiting = announcements.withLock { queue in defer { queue.removeAll() }; return queue }
        for (severity, text) in waiting { sendText(severity: severity, text) }
    }

    /// Stops the thread, then writes the signing state one last time, marked clean.
    public func stop() {
        worker.stop()
        persistSigningState(now: Self.monotonicSeconds(), final: true)
    }

    /// Keeps the signing state's file up to date (at most every
    /// ``MAVLinkSigningStore/flushInterval``; from this thread, never the tick's).
    func persistSigningState(now: Double, final: Bool = false) {
        guard let store = signingStore, let checker, final || now - store.lastWrite >= MAVLinkSigningStore.flushInterval else { return }
        let hadError = store.lastError != nil
        store.update(store.state(streams: checker.incoming, lastSent: sender.lastSignedTimestamp), now: now, final: final)
        if let error = store.lastError, !hadError { log("telemetry: cannot keep the signing state: \(error)") }
    }

    func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferLength, alignment: 8)
        defer { buffer.deallocate() }
        while !worker.stopRequested {
            sendAnnouncements()
            guard let length = sender.socket.receive(into: buffer, timeoutMilliseconds: 50) else {
                persistSigningState(now: Self.monotonicSeconds())
                continue
            }
            handle(datagram: UnsafeRawBufferPointer(buffer), length: length, now: Self.monotonicSeconds())
            persistSigningState(now: Self.monotonicSeconds())
        }
    }

    /// One datagram of `length` bytes (its first `bytes.count` are in `bytes`). The rate limit
    /// counts frames: each one handled takes a token (a signed link's authenticated frames
    /// their own, ``authenticatedTokens``, first); a frame with no token left is dropped; a
    /// datagram with no frame takes a shared one; a datagram arriving with no token of either
    /// kind is not decoded.
    func handle(datagram bytes: UnsafeRawBufferPointer, length: Int, now: Double) {
        count { $0.datagrams += 1 }
        let refill = (now - lastRefill) * settings.maximumRate
        tokens = min(settings.maximumRate, tokens + refill)
        if checker != nil { authenticatedTokens = min(settings.maximumRate, authenticatedTokens + refill) }
        lastRefill = now
        guard tokens >= 1 || authenticatedTokens >= 1 else { return count { $0.rateLimited += 1 } }
        guard length <= bytes.count else {
            if tokens >= 1 { tokens -= 1 }
            return count { $0.oversized += 1 }
        }
        let (frames, error) = MAVLinkDecoder.decodeAll(Array(bytes[0 ..< length]))
        if let error {
            if case .unknownMessage = error { count { $0.ignored += 1 } } else { count { $0.malformed += 1 } }
        }
        if frames.isEmpty, tokens >= 1 { tokens -= 1 }
        for (index, frame) in frames.enumerated() {
            guard tokens >= 1 || authenticatedTokens >= 1 else { return count { $0.rateLimited += frames.count - index } }
            // Authenticate first: the verdict decides which tokens the frame may take.
            let verdict = self.verdict(frame)
            if verdict == .accepted, authenticatedTokens >= 1 {
                authenticatedTokens -= 1
            } else if tokens >= 1 {
                tokens -= 1
            } else if verdict == .badSignature || verdict == .replayed {
                authenticatedTokens -= 1  // checked at a cost: it pays from the only tokens left
                count { $0.rateLimited += 1 }
                continue
            } else {
                count { $0.rateLimited += 1 }
                continue
            }
            handle(frame, verdict: verdict)
        }
    }

    /// The frame's signature checked (nil on a link without a key).
    func verdict(_ frame: MAVLinkFrame) -> MAVLinkSignatureChecker.Verdict? {
        guard var c = checker else { return nil }
        defer { checker = c }
        let verdict = c.check(frame, unixTime: TelemetrySender.unixTime())
        if c.lastRefusalWasAhead {
            // Logged the first time and every 100th: a stream of them cannot flood the log.
            aheadLogged += 1
            if aheadLogged % 100 == 1 {
                log("telemetry: refused a signed frame from system \(frame.systemID) component \(frame.componentID): its timestamp is "
                    + "\(c.lastAheadBy / 100_000) s ahead of this board's clock (more than \(MAVLinkSignatureChecker.maximumAhead / 100_000) s; "
                    + "not remembered; check both clocks) (\(c.aheadRefusals) so far)")
            }
        }
        return verdict
    }

    func handle(_ frame: MAVLinkFrame, verdict: MAVLinkSignatureChecker.Verdict?) {
        func forUs(_ system: UInt8, _ component: UInt8 = 0) -> Bool {
            (system == 0 || system == settings.systemID) && (component == 0 || component == settings.componentID)
        }
        // On a signed link a request is answered only when signed: an unsigned one would make
        // Poise send on its own (a list is one PARAM_VALUE per parameter).
        let unauthenticated = checker != nil && verdict != .accepted
        switch frame.packet {
        case .paramRequestList where unauthenticated, .paramRequestRead where unauthenticated:
            count { $0.refused += 1 }
        case .paramRequestList(let m) where forUs(m.targetSystem, m.targetComponent):
            count { $0.handled += 1 }
            for index in names.indices { sendParameter(index) }
        case .paramRequestRead(let m) where forUs(m.targetSystem, m.targetComponent):
            count { $0.handled += 1 }
            if let index = parameterIndex(m.paramIndex, MAVLinkText.string(m.paramID)) { sendParameter(index) }
        case .paramSet(let m) where forUs(m.targetSystem, m.targetComponent):
            let name = MAVLinkText.string(m.paramID)
            // Authenticate first: a frame that may not act gets the reason only for a name in
            // the list (an index lookup), and nothing at all is asked of the station.
            if let refusal = refusal(verdict) {
                count { $0.refused += 1 }
                guard let index = indexByName[name] else { return }
                sendText(severity: 4, "\(name) not set: \(refusal)")
                return sendParameter(index)
            }
            guard let index = parameterIndex(-1, name) else {
                count { $0.ignored += 1 }
                if let reason = station.unknownParameter(name) { sendText(severity: 4, "\(name) not set: \(reason)") }
                return
            }
            count { $0.handled += 1 }
            if case .failure(let refusal) = station.setParameter(at: index, to: m.paramValue) {
                sendText(severity: 4, "\(name) not set: \(refusal.reason)")
            }
            sendParameter(index)
        case .commandLong(let m) where forUs(m.targetSystem, m.targetComponent):
            var outcome: CommandOutcome
            if let refusal = refusal(verdict) {
                count { $0.refused += 1 }
                outcome = CommandOutcome(.denied, "command \(m.command) refused: \(refusal)")
            } else {
                count { $0.handled += 1 }
                outcome = command(m)
            }
            var ack = CommandAck()
            ack.command = m.command
            ack.result = outcome.result.rawValue
            ack.targetSystem = frame.systemID
            ack.targetComponent = frame.componentID
            sender.reply(.commandAck(ack))
            if let reason = outcome.reason { sendText(severity: outcome.result == .accepted ? 6 : 4, reason) }
        case .manualControl(let m) where forUs(m.target):
            if refusal(verdict) != nil { return count { $0.refused += 1 } }
            count { $0.handled += 1 }
            station.manualControl(m)
        default:
            count { $0.ignored += 1 }
        }
    }

    /// MAV_CMD ids Poise answers.
    public static let armDisarm: UInt16 = 400
    public static let preflightStorage: UInt16 = 245

    func command(_ m: CommandLong) -> CommandOutcome {
        switch m.command {
        case Self.armDisarm:
            return station.arm(m.params[0] >= 0.5)
        case Self.preflightStorage where m.params[0] == 1:
            return station.storeParameters()
        default:
            return CommandOutcome(.unsupported)
        }
    }

    /// Why a command, parameter write or setpoint in a frame with this verdict may not act,
    /// or nil when it may.
    func refusal(_ verdict: MAVLinkSignatureChecker.Verdict?) -> String? {
        switch verdict {
        case .accepted: return nil
        case .unsigned: return "unsigned (this link needs signed frames)"
        case .badSignature: return "bad signature (wrong key?)"
        case .replayed:
            if let c = checker, c.lastRefusalWasAhead { return "signature timestamp \(c.lastAheadBy / 100_000) s ahead of this board's clock" }
            return "replayed or stale signature timestamp"
        case nil:
            if !settings.acceptCommands { return "commands are off (telemetry.accept_commands: false)" }
            if !peerIsLoopback { return "unsigned commands are taken only from loopback (set telemetry.signing_key_file)" }
            return nil
        }
    }

    func parameterIndex(_ index: Int16, _ name: String) -> Int? {
        if index >= 0 { return Int(index) < names.count ? Int(index) : nil }
        return indexByName[name]
    }

    func sendParameter(_ index: Int) {
        var m = ParamValue()
        m.paramID = MAVLinkText.bytes(names[index])
        m.paramValue = station.parameterValue(at: index)
        m.paramCount = UInt16(names.count)
        m.paramIndex = UInt16(index)
        sender.reply(.paramValue(m))
    }

    /// Ids of long STATUSTEXTs sent from here (the stream's count from 1; these from 32768,
    /// so the two never share one).
    var textID: UInt16 = 32767

    func sendText(severity: UInt8, _ text: String) {
        textID = textID == .max ? 32768 : textID + 1
        for piece in StatusText.pieces(severity: severity, text: text, id: textID) { sender.reply(.statusText(piece)) }
    }

    func count(_ change: (inout Counts) -> Void) { counts.withLock { change(&$0) } }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}

import Foundation
import PoiseTelemetry
import PoiseThreads
import Synchronization

/// Receives the MAVLink stream on a UDP port and pushes snapshots to the pages.
///
/// Runs on its own thread. Anything that is not MAVLink Poise understands is counted and
/// dropped; a sender that stops and starts again (or a new one) just continues the display.
public final class MAVLinkListener: @unchecked Sendable {
    let socket: UDPSocket
    let hub: BroadcastHub
    let worker = WorkerThread(name: "poise-view-mav")
    var state = ViewState()
    let encoder = JSONEncoder()
    /// Where each snapshot also goes as one JSON datagram (PlotJuggler's UDP server), if anywhere.
    let relay: UDPSocket?

    /// With the link's key: only frames with a valid signature and a fresh timestamp are shown.
    var checker: MAVLinkSignatureChecker?
    var refusalsReported = 0

    /// - Parameter signingKey: the link's key (`telemetry.signing_key_file`); frames without a
    ///   valid signature are then counted and dropped, never shown.
    public init(port: UInt16, host: String = "127.0.0.1", hub: BroadcastHub, jsonRelay: TelemetryAddress? = nil,
                signingKey: MAVLinkSigningKey? = nil) throws(TelemetryError) {
        socket = try UDPSocket(listeningOn: port, host: host)
        self.hub = hub
        relay = try jsonRelay.map { address throws(TelemetryError) in try UDPSocket(sendingTo: address) }
        checker = signingKey.map { MAVLinkSignatureChecker(key: $0) }
        state.verifiesSignatures = signingKey != nil
    }

    /// The bound UDP port.
    public var port: UInt16 { socket.localPort }

    public func start() {
        worker.start { [self] in run() }
    }

    public func stop() {
        worker.stop()
    }

    func run() {
        while !worker.stopRequested {
            guard let datagram = socket.receive(timeoutMilliseconds: 200) else { continue }
            let (frames, error) = MAVLinkDecoder.decodeAll(datagram)
            if error != nil || frames.isEmpty { state.countBadDatagram() }
            let now = Date().timeIntervalSince1970 * 1000
            for frame in frames {
                if checker != nil {
                    let verdict = checker!.check(frame, unixTime: now / 1000)
                    guard verdict == .accepted else {
                        refuse(verdict)
                        continue
                    }
                }
                guard state.apply(frame, receivedAt: now) else { continue }
                let data: Data
                do { data = try encoder.encode(state.snapshot) } catch {
                    reportEncodingFailure(error)
                    continue
                }
                hub.broadcast(String(decoding: data, as: UTF8.self), sensorTime: state.snapshot.time)
                data.withUnsafeBytes { _ = relay?.send($0) }
            }
        }
    }

    /// Counts a refused frame and says so on standard error (the first, then every 1000th).
    func refuse(_ verdict: MAVLinkSignatureChecker.Verdict) {
        let reason = switch verdict {
        case .unsigned: "unsigned"
        case .badSignature: "bad signature (another key?)"
        case .replayed: "replayed or stale timestamp"
        case .accepted: "accepted"
        }
        state.refuse(reason)
        refusalsReported += 1
        guard refusalsReported % 1000 == 1 else { return }
        let line = "poise view: refused a MAVLink frame: \(reason) (\(refusalsReported) so far; the link's key is checked)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    var encodingFailures = 0
    /// ViewState keeps snapshots encodable, so this is a bug: say so on standard error (the
    /// first time and then every 1000th, so a stream of them cannot flood the terminal).
    func reportEncodingFailure(_ error: any Error) {
        encodingFailures += 1
        guard encodingFailures % 1000 == 1 else { return }
        let line = "poise view: a snapshot could not be encoded and was not sent (\(encodingFailures) so far): \(error)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

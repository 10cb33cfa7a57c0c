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

    public init(port: UInt16, host: String = "127.0.0.1", hub: BroadcastHub, jsonRelay: TelemetryAddress? = nil) throws(TelemetryError) {
        socket = try UDPSocket(listeningOn: port, host: host)
        self.hub = hub
        relay = try jsonRelay.map { address throws(TelemetryError) in try UDPSocket(sendingTo: address) }
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
            for frame in frames where state.apply(frame, receivedAt: now) {
                let data: Data
                do { data = try encoder.encode(state.snapshot) } catch {
                    reportEncodingFailure(error)
                    continue
                }
                hub.broadcast(String(decoding: data, as: UTF8.self))
                data.withUnsafeBytes { _ = relay?.send($0) }
            }
        }
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

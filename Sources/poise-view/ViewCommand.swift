import ArgumentParser
import Foundation
import PoiseCommandLine
import PoiseTelemetry
import PoiseView

/// `poise view` (this program, which `poise view` runs): the attitude, outputs and loop
/// health in a browser.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poise view",
        abstract: "Show the attitude in 3D, live plots and loop health in a web browser.",
        discussion: """
            Without a trace, listens for MAVLink 2 on a UDP port (what `poise run`, `poise play` \
            or a board across the network sends; see the telemetry config section) and pushes \
            every attitude to the page as it arrives. With a trace, runs it through the filter \
            and lets the page play it with a time slider. The page needs nothing from the \
            internet; open the printed address.

            Examples:
              poise view                               # MAVLink on UDP 14550, page on 127.0.0.1:8080
              poise view --udp-port 14551 --host 0.0.0.0 --port 8000
              poise view --plotjuggler 127.0.0.1:9870  # and plot every field in PlotJuggler
              poise view run.csv --config boards/sim.yaml
            """)

    @Argument(help: "A trace to play in the page instead of listening for MAVLink.")
    var trace: String?

    @OptionGroup var estimation: EstimationOptions

    @Option(help: "UDP port to receive MAVLink on (0 picks a free one).")
    var udpPort: UInt16 = 14550

    @Option(help: "Address to receive MAVLink on.")
    var udpHost = "0.0.0.0"

    @Option(help: "Address the web page is served on (0.0.0.0 for other machines on the network).")
    var host = "127.0.0.1"

    @Option(help: "TCP port of the web page (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: "Also send every live snapshot as a JSON datagram to HOST:PORT (PlotJuggler's UDP server).")
    var plotjuggler: String?

    func run() throws {
        let hub = BroadcastHub()
        let source: ViewServer.Source
        var listener: MAVLinkListener? = nil
        if let trace {
            let configuration = try estimation.loadConfiguration()
            var snapshots = try TraceSnapshots.load(path: trace, configuration: configuration,
                                                    choice: try estimation.filterChoice(configuration),
                                                    useMagnetometer: try estimation.useMagnetometer(configuration))
            // A long trace is thinned so the page and this process stay small.
            let limit = 20_000
            if snapshots.count > limit {
                let step = (snapshots.count + limit - 1) / limit
                snapshots = stride(from: 0, to: snapshots.count, by: step).map { snapshots[$0] }
            }
            let json = try JSONEncoder().encode(snapshots)
            source = .trace(name: URL(fileURLWithPath: trace).lastPathComponent, snapshotsJSON: json)
        } else {
            let relay = try plotjuggler.map { text throws(TelemetryError) in try TelemetryAddress(parsing: text) }
            let mavlink = try MAVLinkListener(port: udpPort, host: udpHost, hub: hub, jsonRelay: relay)
            mavlink.start()
            listener = mavlink
            source = .live(udpPort: mavlink.port)
        }
        let server = try ViewServer(host: host, port: port, source: source, hub: hub)
        let outcome = ServerOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await server.run() } catch { outcome.error = error }
            done.signal()
        }
        let udpPort = listener?.port, udpHost = udpHost, host = host, requestedPort = port
        Task {
            try? await server.waitUntilListening()
            let port = await server.listeningPort() ?? requestedPort
            var line = "poise view: http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/"
            if let udpPort { line += " (MAVLink on UDP \(udpHost):\(udpPort))" }
            line += "\n"
            line.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
        done.wait()
        listener?.stop()
        if let error = outcome.error {
            throw ValidationError("cannot serve the page on \(host):\(port): \(error)")
        }
    }
}

/// How the server task ended, handed back to the blocked command.
final class ServerOutcome: @unchecked Sendable {
    var error: Error?
}

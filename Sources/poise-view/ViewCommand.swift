import ArgumentParser
import Foundation
import PoiseCommandLine
import PoiseConfig  // PoiseConfiguration passes through here by value: rebuilt when its layout changes
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
              poise view                               # MAVLink on UDP 127.0.0.1:14600, page on 127.0.0.1:8080
              poise view --udp-host 0.0.0.0            # MAVLink from a board across the network
              poise view --udp-port 14601 --host 0.0.0.0 --port 8000
              poise view --plotjuggler 127.0.0.1:9870  # and plot every field in PlotJuggler
              poise view run.csv --config boards/sim.yaml
            """)

    @Argument(help: "A trace to play in the page instead of listening for MAVLink.")
    var trace: String?

    @OptionGroup var estimation: EstimationOptions

    // Not 14550: that is QGroundControl's, and both on one port would split the stream.
    @Option(parsing: .unconditional, help: "UDP port to receive MAVLink on (0 picks a free one).")
    var udpPort: UInt16 = 14600

    @Option(help: "Address to receive MAVLink on: this machine only by default; 0.0.0.0 for every interface (a board across the network).")
    var udpHost = "127.0.0.1"

    @Option(help: "Address the web page is served on (0.0.0.0 for other machines on the network).")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "TCP port of the web page (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: "Also send every live snapshot as a JSON datagram to HOST:PORT (PlotJuggler's UDP server).")
    var plotjuggler: String?

    @Option(parsing: .unconditional, help: "Page connections open at once; more are answered 503 until some close.")
    var maxConnections = ConnectionLimits().connections

    @Option(parsing: .unconditional, help: "Seconds a browser may take to send one request; slower connections are closed.")
    var requestTimeout = ConnectionLimits().requestSeconds

    func validate() throws {
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, got \(maxConnections)") }
        guard requestTimeout > 0, requestTimeout.isFinite else { throw ValidationError("--request-timeout must be more than 0 s, got \(requestTimeout)") }
    }

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
            source = .trace(name: URL(fileURLWithPath: trace).lastPathComponent, snapshotsJSON: json,
                            channels: try TraceSnapshots.channelNames(path: trace))
        } else {
            let relay = try plotjuggler.map { text throws(TelemetryError) in try TelemetryAddress(parsing: text) }
            let mavlink = try MAVLinkListener(port: udpPort, host: udpHost, hub: hub, jsonRelay: relay)
            mavlink.start()
            listener = mavlink
            // MAVLink carries no channel names: they come from --config when it is given.
            let channels = estimation.config == nil ? [] : try estimation.loadConfiguration().outputs.channels.prefix(16).map(\.name)
            source = .live(udpPort: mavlink.port, channels: channels)
        }
        var limits = ConnectionLimits()
        limits.connections = maxConnections
        limits.requestSeconds = requestTimeout
        let server = try ViewServer(host: host, port: port, source: source, hub: hub, limits: limits)
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

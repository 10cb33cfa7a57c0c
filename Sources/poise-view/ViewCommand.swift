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

    @Option(name: .customLong("allow-host"), help: "Another name or address the page may be opened by (other than loopback and --host); repeat for more.")
    var allowedHosts: [String] = []

    @Option(help: "The link's MAVLink signing key (as telemetry.signing_key_file; default: that key of --config): only frames it signs are shown.")
    var signingKeyFile: String?

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
            let names = try TraceSnapshots.channelNames(path: trace)
            source = .trace(name: URL(fileURLWithPath: trace).lastPathComponent, snapshotsJSON: json,
                            channels: names, units: Self.units(of: names, in: configuration))
        } else {
            let relay = try plotjuggler.map { text throws(TelemetryError) in try TelemetryAddress(parsing: text) }
            let configuration = estimation.config == nil ? nil : try estimation.loadConfiguration()
            let key = try signingKey(configuration)
            let mavlink = try MAVLinkListener(port: udpPort, host: udpHost, hub: hub, jsonRelay: relay, signingKey: key)
            mavlink.start()
            listener = mavlink
            // MAVLink carries no channel names: they come from --config when it is given.
            let channels = configuration.map { Array($0.outputs.channels.prefix(16).map(\.name)) } ?? []
            source = .live(udpPort: mavlink.port, channels: channels, units: configuration.map { Self.units(of: channels, in: $0) } ?? [])
        }
        var limits = ConnectionLimits()
        limits.connections = maxConnections
        limits.requestSeconds = requestTimeout
        let server = try ViewServer(host: host, port: port, source: source, hub: hub, limits: limits,
                                    originPolicy: RequestOriginPolicy(servedOn: host, extra: allowedHosts))
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
        if let error = outcome.error as? ViewServerError { throw error }
        if let error = outcome.error {
            throw ValidationError("cannot serve the page on \(host):\(port): \(error)")
        }
    }
}

extension ViewCommand {
    /// Each named channel's unit in SERVO_OUTPUT_RAW: `level` (0/1) for GPIO, `µs` for PWM and
    /// PCA9685 pulses; "" for a name the configuration does not have.
    static func units(of names: [String], in configuration: PoiseConfiguration) -> [String] {
        names.map { name in
            guard let channel = configuration.outputs.channels.first(where: { $0.name == name }) else { return "" }
            return channel.kind == .gpio ? "level" : "µs"
        }
    }

    /// The link's key: --signing-key-file, else the configuration's telemetry.signing_key_file
    /// (relative to the configuration file's folder, as `poise run` reads it).
    func signingKey(_ configuration: PoiseConfiguration?) throws -> MAVLinkSigningKey? {
        var path = signingKeyFile
        if path == nil, let file = configuration?.telemetry.stream.signingKeyFile {
            path = file
            if !file.hasPrefix("/"), let config = estimation.config, let slash = config.lastIndex(of: "/") {
                path = String(config[...slash]) + file
            }
        }
        guard let path else { return nil }
        do { return try MAVLinkSigningKey(file: path) } catch { throw ValidationError(error.description) }
    }
}

/// How the server task ended, handed back to the blocked command.
final class ServerOutcome: @unchecked Sendable {
    var error: Error?
}

import FlyingFox
import FlyingSocks
import Foundation

/// The HTTP side of `poise view`: the page, its script, the trace (in trace mode) and the
/// WebSocket the live snapshots arrive on. Everything is served from memory; no file, CDN or
/// network access beyond the page's own host is needed.
public final class ViewServer: Sendable {
    public enum Source: Sendable {
        /// Live snapshots from the MAVLink stream, pushed by the hub.
        case live(udpPort: UInt16)
        /// A whole trace, already as JSON snapshots, played in the page with a time slider.
        case trace(name: String, snapshotsJSON: Data)
    }

    let server: HTTPServer
    public let hub: BroadcastHub
    let routes: [(String, String, Data)]

    public init(host: String, port: UInt16, source: Source, hub: BroadcastHub) throws {
        self.hub = hub
        let address = try sockaddr_in.inet(ip4: host, port: port)
        server = HTTPServer(address: address, timeout: 60, logger: .disabled)
        let info: [String: Any]
        var traceJSON: Data? = nil
        switch source {
        case .live(let udpPort):
            info = ["mode": "live", "udpPort": Int(udpPort)]
        case .trace(let name, let json):
            info = ["mode": "trace", "name": name]
            traceJSON = json
        }
        let infoJSON = try JSONSerialization.data(withJSONObject: info, options: [.sortedKeys])
        routes = [
            ("GET /", "text/html; charset=utf-8", Data(PageAssets.html.utf8)),
            ("GET /index.html", "text/html; charset=utf-8", Data(PageAssets.html.utf8)),
            ("GET /app.js", "text/javascript; charset=utf-8", Data(PageAssets.script.utf8)),
            ("GET /info.json", "application/json", infoJSON),
        ] + (traceJSON.map { [("GET /trace.json", "application/json", $0)] } ?? [])
    }

    /// Serves until the process ends; throws when the port cannot be opened.
    public func run() async throws {
        for (route, type, body) in routes {
            await server.appendRoute(HTTPRoute(stringLiteral: route)) { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: body)
            }
        }
        await server.appendRoute("GET /ws", to: .webSocket(PageSocket(hub: hub)))
        try await server.run()
    }
    public func waitUntilListening() async throws {
        try await server.waitUntilListening()
    }

    /// The bound TCP port (useful after asking for port 0).
    public func listeningPort() async -> UInt16? {
        guard let address = await server.listeningAddress else { return nil }
        switch address {
        case .ip4(_, let port), .ip6(_, let port): return port
        default: return nil
        }
    }
}

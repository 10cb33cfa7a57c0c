import FlyingFox
import FlyingSocks
import Foundation

/// The HTTP side of `poise view`: the page, its script, the trace (in trace mode) and the
/// WebSocket the live snapshots arrive on. Everything is served from memory; no file, CDN or
/// network access beyond the page's own host is needed.
public final class ViewServer: Sendable {
    public enum Source: Sendable {
        /// Live snapshots from the MAVLink stream, pushed by the hub. `channels`: the output
        /// channels' names from the configuration, when given (MAVLink does not carry them).
        case live(udpPort: UInt16, channels: [String] = [], units: [String] = [])
        /// A whole trace, already as JSON snapshots, played in the page with a time slider;
        /// `channels` from its `out_NAME` columns.
        case trace(name: String, snapshotsJSON: Data, channels: [String] = [], units: [String] = [])
    }

    let server: HTTPServer
    public let hub: BroadcastHub
    let routes: [(String, String, Data)]
    /// Request size and time, connection and descriptor limits (FlyingFox has none).
    public let connectionGuard: ConnectionGuard
    /// Which `Host` and `Origin` are answered: this viewer's own names only.
    public let originPolicy: RequestOriginPolicy
    let host: String
    let port: UInt16

    public init(host: String, port: UInt16, source: Source, hub: BroadcastHub, limits: ConnectionLimits = ConnectionLimits(),
                originPolicy: RequestOriginPolicy? = nil) throws {
        self.hub = hub
        self.host = host
        self.port = port
        self.originPolicy = originPolicy ?? RequestOriginPolicy(servedOn: host)
        let address = try sockaddr_in.inet(ip4: host, port: port)
        connectionGuard = ConnectionGuard(limits: limits)
        let pool = GuardedSocketPool(inner: HTTPServer.defaultPool(), connectionGuard: connectionGuard)
        // `timeout` bounds a handler's time; ours answer from memory at once. Keep it short:
        // FlyingFox runs each request under a sleeping timeout task, and a cancelled sleep
        // keeps its memory until its deadline, so with 60 s a burst of connections held about
        // 800 bytes each for a minute (6000 connections: 4.7 MB).
        server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 5, pool: pool, logger: .disabled))
        var traceJSON: Data? = nil
        switch source {
        case .live(let udpPort, let channels, let units):
            info = ["mode": "live", "udpPort": Int(udpPort), "channels": channels, "units": units]
        case .trace(let name, let json, let channels, let units):
            info = ["mode": "trace", "name": name, "channels": channels, "units": units]
            traceJSON = json
        }
        routes = [
            ("GET /", "text/html; charset=utf-8", Data(PageAssets.html.utf8)),
            ("GET /index.html", "text/html; charset=utf-8", Data(PageAssets.html.utf8)),
            ("GET /app.js", "text/javascript; charset=utf-8", Data(PageAssets.script.utf8)),
        ] + (traceJSON.map { [("GET /trace.json", "application/json", $0)] } ?? [])
    }

    /// What the page is told first. `now`: this machine's wall clock, ms since 1970, so the
    /// page can age snapshots by the server's clock even when it runs on another machine.
    let info: [String: any Sendable]
    func infoJSON() throws -> Data {
        var info = info
        info["now"] = Date().timeIntervalSince1970 * 1000
        // Pages connected now: a page that has gone must leave the hub (and its memory).
        info["pages"] = hub.clientCount
        return try JSONSerialization.data(withJSONObject: info, options: [.sortedKeys])
    }

    /// Serves until the process ends; throws when the port cannot be opened.
    public func run() async throws {
        let limiter = connectionGuard
        let policy = originPolicy
        // A page of another site, or a name that is not this viewer's (DNS rebinding): 403 with
        // the reason, before anything is read or upgraded.
        @Sendable func refusal(_ request: HTTPRequest) -> HTTPResponse? {
            guard let reason = policy.refusal(host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")]) else { return nil }
            return HTTPResponse(statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                                body: Data("poise view: refused: \(reason)\n".utf8))
        }
        // Every route tells the guard a request was answered, so it can tell a connection that
        // is still sending its request from one between requests.
        for (route, type, body) in routes {
            await server.appendRoute(HTTPRoute(stringLiteral: route)) { request in
                limiter.noteRequest(request, webSocket: false)
                if let refused = refusal(request) { return refused }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: body)
            }
        }
        await server.appendRoute("GET /info.json") { [self] request in
            limiter.noteRequest(request, webSocket: false)
            if let refused = refusal(request) { return refused }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: try infoJSON())
        }
        let socket = WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: PageSocket(hub: hub)))
        await server.appendRoute("GET /ws") { request in
            limiter.noteRequest(request, webSocket: true)
            if let refused = refusal(request) { return refused }
            return try await socket.handleRequest(request)
        }
        // Anything else: 404, or 413 for a body (the page never sends one).
        await server.appendRoute("*") { request in
            limiter.noteRequest(request, webSocket: false)
            let hasBody = (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 || request.headers[.transferEncoding] != nil
            return HTTPResponse(statusCode: hasBody ? .payloadTooLarge : .notFound, headers: [.connection: "close"])
        }
        connectionGuard.start()
        defer { connectionGuard.stop() }
        while true {
            do {
                try await server.run()
                return
            } catch SocketError.failed(let type, let code, _) where type == "Bind" {
                throw ViewServerError(bindFailure: code, host: host, port: port)
            } catch SocketError.failed(let type, let code, _) where type == "Accept" && (code == EMFILE || code == ENFILE) {
                // Only if a burst of connections outran the guard: FlyingFox's accept loop ends
                // on this error. Serve again (the pages reconnect by themselves).
                FileHandle.standardError.write(Data("poise view: out of file descriptors; refusing connections until some close\n".utf8))
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
    public func waitUntilListening() async throws {
        try await server.waitUntilListening()
        if let port = await listeningPort() { originPolicy.servedOn(port: port) }
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

/// Why the page cannot be served, said as the UDP side says it.
public struct ViewServerError: Error, CustomStringConvertible {
    public let description: String

    init(bindFailure code: Int32, host: String, port: UInt16) {
        let place = "cannot serve the page on TCP \(host):\(port)"
        switch code {
        case EADDRINUSE:
            description = place + ": the port is already in use (another poise view or web server?); choose another with --port (0 picks a free one)"
        case EACCES:
            description = place + ": permission denied (ports below 1024 need root); choose another with --port"
        case EADDRNOTAVAIL:
            description = place + ": \(host) is not an address of this machine; choose another with --host"
        default:
            description = place + ": \(String(cString: strerror(code)))"
        }
    }
}

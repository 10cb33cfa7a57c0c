/// What one page connection may do, enforced by ``ConnectionGuard`` around FlyingFox (which
/// has no such limits of its own: it reads request heads of any length, at a cost that grows
/// with the square of a header line, waits for them forever, and accepts until the process
/// runs out of descriptors).
public struct ConnectionLimits: Sendable {
    /// Bytes one request may take, head and body together (the page sends no bodies). More:
    /// 431 while the head is still coming, 413 for a body; then the connection is closed.
    public var requestBytes = 8192
    /// Seconds a connection may take to send a whole request, counted from its start or its
    /// previous request; then 408 (or, when idle between requests, just closed).
    public var requestSeconds = 10.0
    /// Page connections open at once (a page uses a WebSocket and, while loading, a few more);
    /// further ones are answered 503 and closed until some go.
    public var connections = 128
    /// Bytes a page may send on its WebSocket in all (it sends none; close and pong frames fit).
    public var webSocketBytes = 65536
    /// Descriptors kept free below the process's limit for everything else (the UDP sockets,
    /// refusing connections, files) and for a burst of connections accepted between two looks:
    /// the connection cap shrinks to leave them.
    public var reservedDescriptors = 48
    /// Connections the kernel may queue for accepting (FlyingFox accepts a whole queue at
    /// once); well below `reservedDescriptors`.
    public var acceptQueue = 32
    /// How often the connections are looked at, s.
    public var checkInterval = 0.2

    public init() {}
}

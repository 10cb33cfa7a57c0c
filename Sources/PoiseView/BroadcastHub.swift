import FlyingFox
import Synchronization

/// Fans text messages out to every connected page.
///
/// Each page gets its own bounded buffer that keeps the newest messages, so a slow or stalled
/// browser loses old snapshots instead of holding memory or slowing the others down.
public final class BroadcastHub: Sendable {
    let clients = Mutex<[Int: AsyncStream<WSMessage>.Continuation]>([:])
    let nextID = Atomic<Int>(0)
    /// The newest message, sent first to a page that connects (or reconnects).
    let latest = Mutex<String?>(nil)

    public init() {}

    public var clientCount: Int { clients.withLock { $0.count } }

    /// A new page's outgoing stream; it leaves the hub when the page goes away.
    func subscribe(incoming: AsyncStream<WSMessage>) -> AsyncStream<WSMessage> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(32))
        if let latest = latest.withLock({ $0 }) { continuation.yield(.text(latest)) }
        clients.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        // The page's own messages are not used; its stream ending means it has gone.
        Task { [weak self] in
            for await _ in incoming {}
            self?.remove(id)
            continuation.finish()
        }
        return stream
    }

    func remove(_ id: Int) { _ = clients.withLock { $0.removeValue(forKey: id) } }

    /// Sends `text` to every page.
    public func broadcast(_ text: String) {
        latest.withLock { $0 = text }
        let targets = clients.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(.text(text)) }
    }
}

/// FlyingFox's WebSocket handler for one page connection.
struct PageSocket: WSMessageHandler {
    let hub: BroadcastHub
    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        hub.subscribe(incoming: client)
    }
}

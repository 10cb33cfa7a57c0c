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
    /// The last seconds of snapshots, thinned, sent to a page that connects late so its plots
    /// do not start empty.
    let history = Mutex(SnapshotHistory())

    public init() {}

    public var clientCount: Int { clients.withLock { $0.count } }

    /// A new page's outgoing stream; it leaves the hub when the page goes away.
    func subscribe(incoming: AsyncStream<WSMessage>) -> AsyncStream<WSMessage> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(32))
        if let past = history.withLock({ $0.message }) { continuation.yield(.text(past)) }
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

    /// Sends `text` to every page; with `sensorTime` (s), it is kept in the short history too.
    public func broadcast(_ text: String, sensorTime: Double? = nil) {
        latest.withLock { $0 = text }
        if let sensorTime { history.withLock { $0.append(text, time: sensorTime) } }
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

/// The snapshots of the last ``seconds`` of sensor time, at most one per ``spacing``: what a
/// page opened late draws in its plots. Bounded: ``seconds`` / ``spacing`` entries.
struct SnapshotHistory: Sendable {
    static let seconds = 10.0
    static let spacing = 0.02
    var entries: [(time: Double, text: String)] = []
    var start = 0

    mutating func append(_ text: String, time: Double) {
        if let last = entries.last {
            // A restarted (or another) sender: its clock is not the old one's.
            if time < last.time { entries.removeAll(); start = 0 }
            else if time - last.time < Self.spacing { return }
        }
        entries.append((time, text))
        while start < entries.count && entries[start].time < time - Self.seconds { start += 1 }
        if start > 256 { entries.removeFirst(start); start = 0 }
    }

    /// `{"history":[snapshot, …]}`, oldest first; nil when there is too little to draw.
    var message: String? {
        guard entries.count - start >= 2 else { return nil }
        return "{\"history\":[" + entries[start...].map(\.text).joined(separator: ",") + "]}"
    }
}

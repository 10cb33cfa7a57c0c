import FlyingFox
import Foundation
import PoiseThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Enforces ``ConnectionLimits`` on FlyingFox's connections from outside the library.
///
/// A thread looks at every connection of the server's port a few times a second: the bytes
/// the kernel says it received since its last request (the routes report each request) and
/// how long that request has been coming. One over a limit gets its status line written
/// directly and is shut down; FlyingFox then reads the end of the stream and closes it as any
/// other. New connections over the cap, or too close to the descriptor limit, are refused by
/// ``GuardedSocketPool`` before FlyingFox reads from them.
public final class ConnectionGuard: Sendable {
    public let limits: ConnectionLimits

    /// Requests the routes saw since the last look, by peer.
    struct Seen { var requests = 0, webSocket = false, body = false }
    /// What the watchdog knows of one connection.
    struct Peer {
        var since: Double
        var baseline: UInt64
        var requests = 0
        var webSocket = false
        var body = false
        var closing = false
    }
    struct State {
        var port: UInt16 = 0
        var listener: Int32 = -1
        var reserve: Int32 = -1
        var seen: [String: Seen] = [:]
        var peers: [String: Peer] = [:]
        /// From the watchdog's last look, plus the connections let in since: admission
        /// decides from these instead of reading /proc for every connection.
        var connections = 0
        var descriptors = 0
        var admitted: Set<String> = []
        /// Requests answered since memory was last given back, and when to give it back: 6 s
        /// after the last of a crowd came, once FlyingFox's request timeouts (5 s) have let go
        /// of theirs.
        var newSinceTrim = 0
        var trimAt: Double? = nil
    }
    let state = Mutex(State())
    let stopping = Atomic<Bool>(false)

    /// What was refused or closed, for tests and measurements.
    public struct Counts: Sendable, Equatable {
        public var headTooLarge = 0, bodyTooLarge = 0, timedOut = 0, webSocketTooChatty = 0, refused = 0
    }
    let counts = Mutex(Counts())
    public var refusals: Counts { counts.withLock { $0 } }

    public init(limits: ConnectionLimits = ConnectionLimits()) {
        self.limits = limits
    }

    /// Starts looking at the connections, on a thread of its own.
    public func start() {
        // Not joined: ``stop()`` only tells it to end within a check interval.
        WorkerThread(name: "poise-view-lim").start(detached: true) { [self] in
            while !stopping.load(ordering: .acquiring) {
                check(now: ProcessInfo.processInfo.systemUptime)
                Thread.sleep(forTimeInterval: limits.checkInterval)
            }
        }
    }

    public func stop() { stopping.store(true, ordering: .releasing) }

    // MARK: What the routes report

    /// Called by every route with the request it is answering.
    func noteRequest(_ request: HTTPRequest, webSocket: Bool) {
        guard let peer = Self.peer(request.remoteAddress) else { return }
        let body = (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 || request.headers[.transferEncoding] != nil
        state.withLock {
            $0.seen[peer, default: Seen()].requests += 1
            $0.seen[peer]!.webSocket = $0.seen[peer]!.webSocket || webSocket
            $0.seen[peer]!.body = body
        }
    }

    static func peer(_ address: HTTPRequest.Address?) -> String? {
        switch address {
        case .ip4(let host, let port), .ip6(let host, let port): "\(host):\(port)"
        default: nil
        }
    }

    // MARK: The watchdog

    /// One look at every connection; closes those over a limit.
    func check(now: Double) {
        let port = state.withLock { $0.port }
        guard port != 0 else { return }
        let (connections, descriptors) = ConnectionSockets.scan(port: port)
        var closing: [(Int32, String?)] = []
        state.withLock { state in
            let seen = state.seen
            state.seen = [:]
            state.connections = connections.count
            state.descriptors = descriptors
            state.admitted = []
            // After a crowd of connections, hand the memory they left free in malloc's
            // per-thread arenas back to the system (glibc keeps it otherwise). An endless
            // crowd postpones it at most until 10 000 requests.
            let arrivals = seen.values.reduce(0) { $0 + $1.requests }
            state.newSinceTrim += arrivals
            if state.newSinceTrim >= 64 && (arrivals > 0 || state.trimAt == nil) && (state.trimAt == nil || state.newSinceTrim < 10_000) {
                state.trimAt = now + 6
            }
            if let trimAt = state.trimAt, now >= trimAt {
                state.trimAt = nil
                state.newSinceTrim = 0
                MallocTrim.run()
            }
            var peers: [String: Peer] = [:]
            for connection in connections {
                guard let bytes = ConnectionSockets.bytesReceived(connection.descriptor) else { continue }
                var peer = state.peers[connection.peer] ?? Peer(since: now, baseline: 0)
                if let seen = seen[connection.peer] {
                    // Everything received so far belonged to requests already answered.
                    peer.requests += seen.requests
                    peer.webSocket = peer.webSocket || seen.webSocket
                    peer.body = seen.body
                    peer.since = now
                    peer.baseline = bytes
                }
                if !peer.closing, case .close(let response) = verdict(peer, pending: bytes &- peer.baseline, now: now) {
                    peer.closing = true
                    closing.append((connection.descriptor, response))
                } else if peer.closing {
                    discardQueued(connection.descriptor)
                }
                peers[connection.peer] = peer
            }
            state.peers = peers
        }
        for (descriptor, response) in closing {
            if let response { ConnectionSockets.sendNow(descriptor, response) }
            shutdown(descriptor, Int32(SHUT_RDWR))
            discardQueued(descriptor)
        }
    }

    /// Throws away what the kernel holds for a connection being closed. FlyingFox would read
    /// it all first (a shut-down socket still returns its queued bytes), and its header
    /// parsing costs the square of a line's length on both of the runtime's threads.
    func discardQueued(_ descriptor: Int32) {
        var scratch = [UInt8](repeating: 0, count: 65536)
        for _ in 0 ..< 64 where recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    /// Whether `descriptor` is a connection this guard is closing: FlyingFox must not wait on it.
    func isClosing(_ descriptor: Int32) -> Bool {
        guard let peer = ConnectionSockets.peer(descriptor) else { return false }
        return state.withLock { $0.peers[peer]?.closing == true }
    }

    enum Verdict: Equatable { case keep, close(response: String?) }

    /// Whether a connection stays, given the bytes it received since its last request.
    func verdict(_ peer: Peer, pending: UInt64, now: Double) -> Verdict {
        if peer.webSocket {
            guard pending > UInt64(limits.webSocketBytes) else { return .keep }
            counts.withLock { $0.webSocketTooChatty += 1 }
            return .close(response: nil)
        }
        if pending > UInt64(limits.requestBytes) {
            if peer.body {
                counts.withLock { $0.bodyTooLarge += 1 }
                return .close(response: ConnectionSockets.response(413, "Content Too Large"))
            }
            counts.withLock { $0.headTooLarge += 1 }
            return .close(response: ConnectionSockets.response(431, "Request Header Fields Too Large"))
        }
        if now - peer.since > limits.requestSeconds {
            counts.withLock { $0.timedOut += 1 }
            // Idle between requests: just close; half a request: say why.
            return .close(response: pending == 0 ? nil : ConnectionSockets.response(408, "Request Timeout"))
        }
        return .keep
    }

    // MARK: Admission, from GuardedSocketPool

    /// The listening socket, the first time FlyingFox waits on it. A short accept queue, so the
    /// burst FlyingFox accepts between two waits (it only waits once the queue is empty) stays
    /// well inside the reserved descriptors; a small receive buffer for the connections it
    /// accepts, so an endless request cannot pile up in the kernel between two looks.
    func adopt(listener descriptor: Int32) {
        let isNew = state.withLock { state in
            guard state.listener != descriptor else { return false }
            state.listener = descriptor
            state.port = ConnectionSockets.localPort(descriptor) ?? 0
            if state.reserve < 0 { state.reserve = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            return true
        }
        guard isNew else { return }
        var size: Int32 = 16384
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        listen(descriptor, Int32(limits.acceptQueue))
    }

    /// Whether one more connection would pass the cap, or come too near the descriptor limit
    /// (`descriptor`: a new connection's; the kernel hands out the lowest free one, so all
    /// below it are taken).
    func isFull(descriptor: Int32 = 0) -> Bool {
        let room = ConnectionSockets.descriptorLimit() - limits.reservedDescriptors
        return Int(descriptor) >= room || state.withLock { state in
            state.connections + state.admitted.count >= limits.connections || state.descriptors + state.admitted.count >= room
        }
    }

    /// Answers 503 to, and closes, every connection waiting on the listener; with no descriptor
    /// left, the reserved one is given up for the moment it takes.
    func refuseWaiting(listener: Int32) {
        // The listener is non-blocking (FlyingFox made it so): accept ends at an empty queue.
        while true {
            var descriptor = accept(listener, nil, nil)
            if descriptor < 0 && (errno == EMFILE || errno == ENFILE) {
                let reserve = state.withLock { state in defer { state.reserve = -1 }; return state.reserve }
                guard reserve >= 0 else { return }
                close(reserve)
                descriptor = accept(listener, nil, nil)
                if descriptor >= 0 { refuse(descriptor) }
                let reopened = open("/dev/null", O_RDONLY | O_CLOEXEC)
                state.withLock { $0.reserve = reopened }
                if descriptor < 0 { return }
                continue
            }
            guard descriptor >= 0 else { return }
            refuse(descriptor)
        }
    }

    func refuse(_ descriptor: Int32) {
        ConnectionSockets.sendNow(descriptor, ConnectionSockets.response(503, "Service Unavailable"))
        close(descriptor)
        counts.withLock { $0.refused += 1 }
    }

    /// Whether a connection FlyingFox accepted may wait for its first request: not when the
    /// server is full (it is answered 503 and FlyingFox closes it). Connections that already
    /// made a request are never turned away here.
    func admit(connection descriptor: Int32) -> Bool {
        guard let peer = ConnectionSockets.peer(descriptor) else { return true }
        let known = state.withLock { state in
            state.admitted.contains(peer) || state.seen[peer] != nil || state.peers[peer] != nil
        }
        guard !known else { return true }
        guard isFull(descriptor: descriptor) else {
            state.withLock { _ = $0.admitted.insert(peer) }
            return true
        }
        ConnectionSockets.sendNow(descriptor, ConnectionSockets.response(503, "Service Unavailable"))
        counts.withLock { $0.refused += 1 }
        return false
    }
}

import FlyingSocks

/// FlyingFox's socket pool (its configurable event loop) with ``ConnectionGuard``'s admission
/// in front: every wait of the listener or of a new connection passes here first.
struct GuardedSocketPool: AsyncSocketPool {
    let inner: any AsyncSocketPool
    let connectionGuard: ConnectionGuard

    func prepare() async throws { try await inner.prepare() }
    func run() async throws { try await inner.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        let descriptor = socket.file.rawValue
        if ConnectionSockets.isListening(descriptor) {
            connectionGuard.adopt(listener: descriptor)
            // Let FlyingFox accept only while there is room; otherwise turn the queue away.
            while true {
                try await inner.suspendSocket(socket, untilReadyFor: events)
                guard connectionGuard.isFull() else { return }
                connectionGuard.refuseWaiting(listener: descriptor)
            }
        }
        if events.contains(.read), !connectionGuard.admit(connection: descriptor) { throw RefusedConnection() }
        if connectionGuard.isClosing(descriptor) { throw RefusedConnection() }
        try await inner.suspendSocket(socket, untilReadyFor: events)
    }
}

/// A connection turned away (the server is full) or being closed by the guard.
struct RefusedConnection: Error, CustomStringConvertible {
    var description: String { "closed by the connection limits" }
}

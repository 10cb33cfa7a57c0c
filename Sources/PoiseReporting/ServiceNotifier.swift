#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif

/// systemd's readiness and watchdog notifications (`sd_notify`): one datagram of
/// `KEY=VALUE` lines to the unix socket named by `$NOTIFY_SOCKET` (a path, or an abstract
/// name written with a leading `@`). The protocol is this small, so no libsystemd.
///
/// Used from the reporter thread only, never from the tick: the watchdog is fed only while
/// the tick counter advances, so a hung or stopped loop stops feeding it and systemd kills
/// the service (then `ExecStopPost=poise safe` drives the outputs safe).
public final class ServiceNotifier: @unchecked Sendable {
    let socket: Int32
    var address = sockaddr_un()
    let addressLength: socklen_t
    /// How often to feed the watchdog, s: half of `$WATCHDOG_USEC` (systemd's advice), or
    /// nil when the service has no watchdog.
    public let watchdogInterval: Double?

    /// Nil when `$NOTIFY_SOCKET` is not set (not started by systemd) or not usable.
    public init?(environment: [String: String]) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty,
              name.hasPrefix("/") || name.hasPrefix("@") else { return nil }
        var bytes = Array(name.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }   // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        let fd = datagramSocket()
        guard fd >= 0 else { return nil }
        socket = fd
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        if let text = environment["WATCHDOG_USEC"], let usec = Double(text), usec > 0 {
            watchdogInterval = usec / 2e6
        } else {
            watchdogInterval = nil
        }
    }

    deinit { close(socket) }

    /// The two variables systemd sets for a service that has them.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Sends one notification (`READY=1`, `WATCHDOG=1`, `STOPPING=1`) without waiting; false
    /// when it could not.
    @discardableResult
    public func send(_ message: String) -> Bool {
        var bytes = Array(message.utf8)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                // Never wait: a listener that does not read (its queue full) must not stall the
                // reporter, which also drains the tick ring and writes the recording.
                sendto(socket, &bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), target, addressLength) == bytes.count
            }
        }
    }
}

/// A close-on-exec unix datagram socket (here, where `socket` names the C function and not
/// the notifier's member).
private func datagramSocket() -> Int32 {
    socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
}

#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A UDP socket: connected to one peer for sending, or bound to a port for receiving.
public final class UDPSocket: @unchecked Sendable {
    let descriptor: Int32

    /// A socket that sends datagrams to `address` (resolved once, here).
    public init(sendingTo address: TelemetryAddress) throws(TelemetryError) {
        #if hasFeature(Embedded)
        // The board's static program: numeric addresses and /etc/hosts only (``HostsFile``),
        // parsed here rather than by getaddrinfo, which would link glibc's resolver, NSS and
        // dynamic loader into the binary for nothing a static program can use.
        var host = address.host
        if Self.numericAddress(host, port: address.port) == nil {
            guard let text = HostsFile.contents(), let listed = HostsFile.address(of: host, in: text) else {
                throw TelemetryError("telemetry address \(address): poise-board takes a numeric address or a name in "
                    + "/etc/hosts (a static program cannot use the system's resolver); give the ground station's IP address")
            }
            host = listed
        }
        guard var peer = Self.numericAddress(host, port: address.port) else {
            throw TelemetryError("telemetry address \(address): cannot resolve the host (/etc/hosts gives `\(host)`, not a numeric address)")
        }
        let fd = socket(Int32(peer.ss_family), Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TelemetryError("telemetry: cannot create a UDP socket (\(String(cString: strerror(errno))))") }
        let length = socklen_t(peer.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TelemetryError("telemetry address \(address): \(reason)")
        }
        descriptor = fd
        #else
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(address.host, String(address.port), &hints, &result)
        guard status == 0, let info = result else {
            throw TelemetryError("telemetry address \(address): cannot resolve the host (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TelemetryError("telemetry: cannot create a UDP socket (\(String(cString: strerror(errno))))") }
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TelemetryError("telemetry address \(address): \(reason)")
        }
        descriptor = fd
        #endif
    }

    #if hasFeature(Embedded)
    /// `host` as an IPv4 address (what getaddrinfo's AI_NUMERICHOST takes: inet_aton's forms)
    /// or an IPv6 one (inet_pton's), with `port`; nil when it is neither.
    static func numericAddress(_ host: String, port: UInt16) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        let parsed = withUnsafeMutablePointer(to: &storage) { raw -> Bool in
            if raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1, { v4 in
                v4.pointee.sin_family = sa_family_t(AF_INET)
                v4.pointee.sin_port = port.bigEndian
                return inet_aton(host, &v4.pointee.sin_addr) != 0
            }) { return true }
            return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                v6.pointee = sockaddr_in6()
                v6.pointee.sin6_family = sa_family_t(AF_INET6)
                v6.pointee.sin6_port = port.bigEndian
                return inet_pton(AF_INET6, host, &v6.pointee.sin6_addr) == 1
            }
        }
        return parsed ? storage : nil
    }
    #endif

    /// A socket receiving datagrams on `port` of `host` (IPv4; default loopback only).
    ///
    /// No SO_REUSEADDR: with it a second listener on the same port binds too and silently
    /// takes the stream from the first; without it the second one gets a clear error.
    public init(listeningOn port: UInt16, host: String = "127.0.0.1") throws(TelemetryError) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TelemetryError("cannot create a UDP socket (\(String(cString: strerror(errno))))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            throw TelemetryError("`\(host)`: not an IPv4 address to listen on")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            if code == EADDRINUSE {
                throw TelemetryError("cannot listen for MAVLink on UDP \(host):\(port): the port is already in use "
                    + "(another poise view or a ground station?); choose another with --udp-port")
            }
            throw TelemetryError("cannot listen for MAVLink on UDP \(host):\(port): \(String(cString: strerror(code)))")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The local port (useful after binding port 0).
    public var localPort: UInt16 {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard ok == 0 else { return 0 }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Sends one datagram; false when the kernel refused it (no listener yet, buffer full):
    /// telemetry is best effort, so callers count and go on.
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        sendWithoutWaiting(descriptor, bytes) == bytes.count
    }

    /// Waits up to `timeoutMilliseconds` for a datagram and copies it into `buffer`; its full
    /// length (more than `buffer.count` when it was cut short: oversized), or nil on timeout
    /// or error. Reuses the caller's memory: a flood costs no allocation.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) -> Int? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return nil }
        let count = recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC) | Int32(MSG_DONTWAIT))
        return count >= 0 ? count : nil
    }

    /// The connected peer is a loopback address (127.0.0.0/8 or ::1).
    public var peerIsLoopback: Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard ok == 0 else { return false }
        return withUnsafePointer(to: &address) { pointer in
            if Int32(pointer.pointee.ss_family) == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
                }
            }
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                    var loopback = in6addr_loopback
                    var a = p.pointee.sin6_addr
                    return memcmp(&a, &loopback, MemoryLayout<in6_addr>.size) == 0
                }
            }
            return false
        }
    }

    /// Waits up to `timeoutMilliseconds` for a datagram; nil on timeout.
    public func receive(timeoutMilliseconds: Int32, maximumLength: Int = 2048) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximumLength, 0) }
        guard count >= 0 else { return nil }
        buffer.removeSubrange(count...)
        return buffer
    }
}

/// send(2) without waiting; outside the type, whose own `send` would shadow the C function's
/// name (the same on the host's Glibc and the board's C library).
private func sendWithoutWaiting(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
}

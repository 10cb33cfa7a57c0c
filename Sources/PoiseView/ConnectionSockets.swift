#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kernel's view of this process's sockets, read without disturbing them: which ones are
/// connections to the page server, who is at the other end, how many bytes each has received.
enum ConnectionSockets {
    struct Connection {
        let descriptor: Int32
        /// "address:port" of the peer, as FlyingFox names a request's remote address.
        let peer: String
    }

    /// The server's connections (TCP stream sockets on `port` that are not listening) and the
    /// number of descriptors the process has open, from /proc/self/fd.
    static func scan(port: UInt16) -> (connections: [Connection], descriptors: Int) {
        guard let directory = opendir("/proc/self/fd") else { return ([], 0) }
        defer { closedir(directory) }
        var connections: [Connection] = []
        var descriptors = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name) else { continue }
            descriptors += 1
            guard isConnection(descriptor), localPort(descriptor) == port, let peer = peer(descriptor) else { continue }
            connections.append(Connection(descriptor: descriptor, peer: peer))
        }
        return (connections, descriptors)
    }

    static func option(_ descriptor: Int32, _ level: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, level, name, &value, &length) == 0 ? value : nil
    }

    static func isListening(_ descriptor: Int32) -> Bool { option(descriptor, SOL_SOCKET, SO_ACCEPTCONN) == 1 }

    /// A connected TCP stream socket (not a listener, not UDP, not a file).
    static func isConnection(_ descriptor: Int32) -> Bool {
        option(descriptor, SOL_SOCKET, SO_TYPE) == Int32(SOCK_STREAM.rawValue) && !isListening(descriptor)
            && option(descriptor, SOL_SOCKET, SO_PROTOCOL) == Int32(IPPROTO_TCP)
    }

    static func localPort(_ descriptor: Int32) -> UInt16? {
        address(descriptor, getsockname).map(\.port)
    }

    static func peer(_ descriptor: Int32) -> String? {
        address(descriptor, getpeername).map { "\($0.host):\($0.port)" }
    }

    static func address(_ descriptor: Int32, _ get: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
        -> (host: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { get(descriptor, $0, &length) }
        }
        guard ok == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var address = a.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                    return (String(cString: text), UInt16(bigEndian: a.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    var address = a.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return (String(cString: text), UInt16(bigEndian: a.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }

    /// Bytes the connection has received in all (read or still queued): the kernel's
    /// `tcpi_bytes_received` (Linux 4.1+). Glibc declares `struct tcp_info` only up to
    /// `tcpi_total_retrans`; the kernel's continues with 64-bit counters, of which this is the
    /// fourth (after pacing rate, maximum pacing rate and bytes acknowledged).
    static func bytesReceived(_ descriptor: Int32) -> UInt64? {
        let offset = MemoryLayout<tcp_info>.size + 3 * 8
        var buffer = [UInt8](repeating: 0, count: 512)
        var length = socklen_t(buffer.count)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, &buffer, &length) == 0, Int(length) >= offset + 8 else {
            return nil
        }
        return buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    }

    /// Writes `text` if the socket takes it at once (never blocks, never raises SIGPIPE).
    static func sendNow(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        _ = send(descriptor, &bytes, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }

    /// A minimal response that ends the connection.
    static func response(_ status: Int, _ reason: String) -> String {
        "HTTP/1.1 \(status) \(reason)\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: \(reason.utf8.count + 1)\r\n\r\n\(reason)\n"
    }

    /// The soft limit on open descriptors.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest value
    }
}

import Foundation
import Synchronization

/// Who may read the page and its WebSocket: requests whose `Host` names this viewer, from
/// pages whose `Origin` is this viewer.
///
/// Without it, any web page the user opens could read the live telemetry: a cross-site
/// WebSocket (browsers let a page open one to any address; only the server can refuse it by
/// its `Origin`), or DNS rebinding (a name the attacker controls made to resolve to 127.0.0.1:
/// the page's requests then carry the attacker's name in `Host`). So a request is answered
/// only when its `Host` is a loopback name or address, the `--host` the page is served on, a
/// name given with `--allow-host`, or — serving on 0.0.0.0 — one of this machine's own
/// addresses or its host name; and a request that carries an `Origin` (every browser
/// WebSocket and cross-site fetch does) only when that origin is `http://` one of those names
/// on this viewer's port. Tools that send no `Origin` (curl, scripts) need only the `Host`.
public final class RequestOriginPolicy: Sendable {
    /// Lower-case names and addresses allowed in `Host` and `Origin`.
    public let allowedHosts: Set<String>
    /// The TCP port the page is served on, once known (0 until then: any port).
    let port = Atomic<Int>(0)

    /// - Parameters:
    ///   - servedOn: the address given with `--host`.
    ///   - extra: names given with `--allow-host` (a name by which other machines reach this one).
    public init(servedOn host: String, extra: [String] = []) {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1", "localhost.localdomain"]
        for name in extra + [host] { names.insert(Self.normalized(name)) }
        if host == "0.0.0.0" || host == "::" {
            names.remove(host)
            names.formUnion(Self.ownAddresses())
            var buffer = [CChar](repeating: 0, count: 256)
            if gethostname(&buffer, buffer.count) == 0 {
                let name = String(cString: buffer).lowercased()
                if !name.isEmpty { names.insert(name); names.insert(name + ".local") }
            }
        }
        allowedHosts = names
    }

    /// Sets the port the page is served on (after binding port 0).
    public func servedOn(port value: UInt16) { port.store(Int(value), ordering: .relaxed) }

    /// Why a request with these `Host` and `Origin` headers is refused, or nil to answer it.
    public func refusal(host: String?, origin: String?) -> String? {
        guard let host, !host.isEmpty else { return "no Host header" }
        let name = Self.hostName(ofAuthority: host)
        guard isAllowed(name) else {
            return "Host \(Self.quoted(host)) is not an address of this viewer (allowed: \(allowedList); "
                + "poise view --allow-host NAME adds one)"
        }
        guard let origin else { return nil }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let originHost = url.host else {
            return "Origin \(Self.quoted(origin)) is not a page of this viewer"
        }
        let originName = Self.normalized(originHost)
        let expected = port.load(ordering: .relaxed)
        let originPort = url.port ?? (scheme == "https" ? 443 : 80)
        guard isAllowed(originName), expected == 0 || originPort == expected else {
            return "Origin \(Self.quoted(origin)) is another site: only this viewer's own page may read it"
        }
        return nil
    }

    var allowedList: String { allowedHosts.sorted().joined(separator: ", ") }

    func isAllowed(_ name: String) -> Bool {
        if allowedHosts.contains(name) { return true }
        // All of 127.0.0.0/8 is loopback.
        let parts = name.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The host of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower case.
    static func hostName(ofAuthority authority: String) -> String {
        let text = authority.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return normalized(String(text[text.index(after: text.startIndex) ..< close]))
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            return normalized(String(text[..<colon]))
        }
        return normalized(text)
    }

    static func normalized(_ name: String) -> String {
        var n = name.lowercased()
        if n.hasPrefix("[") && n.hasSuffix("]") { n = String(n.dropFirst().dropLast()) }
        if n.hasSuffix(".") { n.removeLast() }
        return n
    }

    /// A header value for a message: quoted, cut at 80 characters, control characters dropped.
    static func quoted(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(80).map(Character.init))
        return "'" + clean + (text.count > 80 ? "…" : "") + "'"
    }

    /// This machine's interface addresses (IPv4 and IPv6), as text.
    static func ownAddresses() -> Set<String> {
        var result: Set<String> = []
        var list: UnsafeMutablePointer<ifaddrs>? = nil
        guard getifaddrs(&list) == 0, let first = list else { return result }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            if getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                var text = String(cString: host)
                if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }  // fe80::1%eth0
                result.insert(text.lowercased())
            }
        }
        return result
    }
}

#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A host name looked up in `/etc/hosts`, for the board's static program: glibc's resolver
/// loads its NSS modules at run time, which a static executable cannot do, so `poise-board`
/// takes numeric addresses and the names this file gives (`localhost`, the ground station's
/// entry), nothing from DNS or mDNS.
public enum HostsFile {
    public static let path = "/etc/hosts"

    /// The first address `/etc/hosts` (or `text`) gives `name`, or nil.
    public static func address(of name: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            for alias in fields.dropFirst() where alias == name[...] { return String(fields[0]) }
        }
        return nil
    }

    /// The file's text (at most 64 KiB), or nil when it cannot be read.
    public static func contents(path: String = HostsFile.path) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
}

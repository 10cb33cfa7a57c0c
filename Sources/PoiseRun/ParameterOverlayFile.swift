import Foundation
import PoiseConfig
import PoiseFlightSettings
import PoiseSettings

/// The stored parameters' file (PoiseFlightSettings' ``StoredParameters``, read on the host
/// with the configuration's errors) in the state directory: read at each start and SIGHUP,
/// written by the ground station's storage command.
public enum ParameterOverlayFile {
    /// `directory`'s stored parameters' file.
    public static func path(directory: String) -> String {
        directory.hasSuffix("/") ? directory + StoredParameters.fileName : directory + "/" + StoredParameters.fileName
    }

    /// The stored parameters at `path`, nil when there are none; a file that is not a regular
    /// one, cannot be read or has a bad line is refused, each problem with its line.
    public static func read(_ path: String) throws(ConfigErrors) -> StoredParameters? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ConfigErrors([ConfigError(file: path, message: "cannot be read: \(String(cString: strerror(errno)))")])
        }
        // A FIFO would hang the start; a device or a directory is no overlay.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ConfigErrors([ConfigError(file: path, message: "not a regular file: refused")])
        }
        let text = try PoiseConfiguration.readText(path: path, limit: 64 << 10)
        return try StoredParameters(parsing: text, file: path)
    }

    /// `configuration` with the stored parameters at `path` applied (validated as a file is),
    /// and those parameters (nil when there are none). Problems carry the file's name and line.
    public static func apply(_ path: String, to configuration: PoiseConfiguration)
        throws(ConfigErrors) -> (configuration: PoiseConfiguration, overlay: StoredParameters?) {
        guard let overlay = try read(path), !overlay.isEmpty else { return (configuration, nil) }
        return (try configuration.applying(overlay, file: path), overlay)
    }

    /// Replaces the file at `path` with `text` so that a power cut leaves the old file or the
    /// new one, never a part: a temporary file beside it (mode 0644, or the old file's),
    /// written and fsync'ed, renamed over it, the directory fsync'ed.
    public static func write(_ text: String, to path: String) throws(ConfigError) {
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw ConfigError(file: path, message: "not a regular file: not replaced") }
            mode = info.st_mode & 0o7777
        }
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ConfigError(file: path, message: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)
        let bytes = Array(text.utf8)
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += n
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw ConfigError(file: path, message: "cannot write: \(String(cString: strerror(failure)))")
        }
        syncDirectory(of: path)
    }

    /// Removes the file at `path` (none there: nothing to do), the directory fsync'ed.
    public static func remove(_ path: String) throws(ConfigError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ConfigError(file: path, message: "cannot remove: \(String(cString: strerror(errno)))")
        }
        syncDirectory(of: path)
    }

    static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let fd = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }
}

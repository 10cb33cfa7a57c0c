#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How an output reaches its name.
public enum OutputMode: Sendable, Equatable {
    /// Written to a temporary file and renamed over the name at the end (every output of a
    /// command that can be run again: replay, convert, synth, plots).
    case atomic
    /// A live recording: written under its own name from the first record, so a crash, a kill
    /// or a power cut leaves everything up to the last flush there. An existing regular file
    /// is refused unless `overwrite`.
    case live(overwrite: Bool)
}

/// The one output-file policy of every `poise` command (docs/robustness.md):
///
/// - `-` is standard output, named "standard output" in messages.
/// - A regular file (or a new one) is written to `OUT.poise-PID.tmp` in the same directory
///   and renamed over `OUT` only when everything was written: a failure, an interruption
///   or a crash never leaves `OUT` half-written, and the old `OUT` survives until then.
/// - Anything else that exists (a device such as /dev/null, a FIFO, a socket) is written
///   directly: renaming over it would replace the device node with a regular file.
/// - A file that this process has opened as an input is refused (same device and inode,
///   whatever the name): writing it would destroy the input while it is being read.
public struct OutputFile: ~Copyable {
    /// The path as given (`-` for standard output).
    public let path: String
    /// The descriptor to write to.
    public let fd: Int32
    /// The file being written before the rename; nil when written in place.
    let temporaryPath: String?
    let finalPath: String
    /// A live recording (`OutputMode.live`): written in place, kept whatever happens.
    public let isLive: Bool
    var finished = false

    /// The output's name in messages.
    public var name: String { Self.displayName(path) }
    /// "standard output" for `-`, else the path.
    public static func displayName(_ path: String) -> String { path == "-" ? "standard output" : path }

    /// Opens `path` for writing under the policy above.
    /// - Parameter editingInput: the output is meant to replace an input (`calibrate --save`
    ///   rewriting the config it read); the atomic rename makes that safe.
    public init(path: String, editingInput: Bool = false, mode: OutputMode = .atomic) throws(TraceError) {
        self.path = path
        var overwrite: Bool? = nil
        if case .live(let replace) = mode, path != "-" { overwrite = replace }
        isLive = overwrite != nil
        if let overwrite {
            fd = try Self.openLive(path, overwrite: overwrite)
            temporaryPath = nil; finalPath = path
            return
        }
        if path == "-" {
            fd = STDOUT_FILENO; temporaryPath = nil; finalPath = path
            return
        }
        var target = path
        var info = stat()
        var permissions: mode_t?
        var owner: (uid_t, gid_t)?
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw Self.error(path, "cannot write: is a directory") }
            if !editingInput, InputFiles.contains(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) {
                throw Self.error(path, "is also an input of this command; write the output to another file")
            }
            if type != S_IFREG {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                if descriptor < 0 { throw Self.error(path, "cannot open: \(systemErrorMessage(errno))") }
                fd = descriptor; temporaryPath = nil; finalPath = path
                return
            }
            permissions = info.st_mode & 0o7777
            owner = (info.st_uid, info.st_gid)
            // The rename would get past a read-only file's protection; respect it instead.
            if access(path, W_OK) != 0 { throw Self.error(path, "cannot write: \(systemErrorMessage(errno))") }
            // Renaming over a symbolic link would replace the link; write where it points.
            var link = stat()
            if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        } else if errno != ENOENT {
            throw Self.error(path, "cannot write: \(systemErrorMessage(errno))")
        }
        let temporary = "\(target).poise-\(getpid()).tmp"
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if descriptor < 0 && errno == EEXIST {
            // Left behind by an earlier process with the same id that was killed outright.
            unlink(temporary)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        }
        if descriptor < 0 { throw Self.error(path, "cannot create: \(systemErrorMessage(errno))") }
        // The replacement keeps the file's owner (where this process may give it: root, or the
        // owner keeping its own group) and mode; chown first, as it may clear set-id bits.
        if let owner, owner.0 != geteuid() || owner.1 != getegid() { _ = fchown(descriptor, owner.0, owner.1) }
        if let permissions { fchmod(descriptor, permissions) }
        fd = descriptor
        temporaryPath = temporary
        finalPath = target
        Interruption.registerTemporaryFile(temporary)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Opens a live recording under its own name: new (O_EXCL), or an existing regular file
    /// truncated only when `overwrite`; a device or FIFO is written as it is.
    ///
    /// A regular file being recorded is locked (`flock`, held until the descriptor closes):
    /// a second recorder of the same file, `overwrite` or not, is refused rather than
    /// interleaving its records with the first one's. The lock is taken before anything is
    /// truncated, so a refused writer leaves the recording in progress untouched.
    static func openLive(_ path: String, overwrite: Bool, retries: Int = 2) throws(TraceError) -> Int32 {
        var info = stat()
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw error(path, "cannot write: is a directory") }
            if InputFiles.contains(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) {
                throw error(path, "is also an input of this command; write the output to another file")
            }
            if type != S_IFREG {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                if descriptor < 0 { throw error(path, "cannot open: \(systemErrorMessage(errno))") }
                return descriptor
            }
            if !overwrite {
                // Say that it is being recorded, when it is, rather than only that it exists.
                let probe = open(path, O_RDONLY | O_CLOEXEC)
                if probe >= 0 {
                    defer { close(probe) }
                    if flock(probe, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK { throw beingRecorded(path, probe) }
                }
                throw error(path, "exists; a recording never replaces a file unless asked: pass --overwrite, or choose another name")
            }
            // Opened without O_TRUNC: the lock is checked before a byte is lost.
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            if descriptor < 0 { throw error(path, "cannot open: \(systemErrorMessage(errno))") }
            if !lockForRecording(descriptor) {
                defer { close(descriptor) }
                throw beingRecorded(path, descriptor)
            }
            if ftruncate(descriptor, 0) != 0 {
                let code = errno
                close(descriptor)
                throw error(path, "cannot truncate: \(systemErrorMessage(code))")
            }
            return descriptor
        } else if errno != ENOENT {
            throw error(path, "cannot write: \(systemErrorMessage(errno))")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if descriptor < 0 {
            // Created by someone else since the stat: decide as for an existing file.
            if errno == EEXIST && retries > 0 { return try openLive(path, overwrite: overwrite, retries: retries - 1) }
            throw error(path, "cannot create: \(systemErrorMessage(errno))")
        }
        // Another recorder with `overwrite` may have opened and locked it since it was created.
        if !lockForRecording(descriptor) {
            defer { close(descriptor) }
            throw beingRecorded(path, descriptor)
        }
        return descriptor
    }

    /// Takes the recording lock of `fd`'s file; false when another open file description
    /// holds it. A file system without `flock` is recorded unlocked.
    static func lockForRecording(_ fd: Int32) -> Bool {
        flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK
    }

    /// The refusal of a second recorder of `path` (open as `fd`), naming the holder when
    /// /proc/locks says who it is.
    static func beingRecorded(_ path: String, _ fd: Int32) -> TraceError {
        let holder = lockHolder(fd).map { " (pid \($0))" } ?? ""
        return error(path, "is being recorded by another process\(holder); two recorders of one file would interleave "
            + "their records (--overwrite does not change that): stop that one first, or record to another name")
    }

    /// The process holding a `flock` on `fd`'s file, from /proc/locks (Linux); nil if unknown.
    static func lockHolder(_ fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let file = fopen("/proc/locks", "r") else { return nil }
        defer { fclose(file) }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return digits.count < 2 ? "0" + digits : digits
        }
        let wanted = "\(hex(major)):\(hex(minor)):\(UInt64(info.st_ino))"
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 6, fields[1] == "FLOCK", fields[5] == wanted, let pid = Int32(fields[4]), pid != getpid() {
                return pid
            }
        }
        return nil
    }

    /// Makes the output final: renames the temporary file into place (a regular file) or
    /// closes the descriptor. After an interrupting signal a temporary file is removed
    /// instead, so `OUT` stays as it was (see `Interruption`).
    public consuming func commit() throws(TraceError) {
        finished = true
        guard let temporaryPath else {
            if Interruption.requested { Interruption.note("\(name) ends on the last whole row written") }
            // A live recording's last records reach the disk before the command says it is done.
            if isLive && fsync(fd) != 0 && errno != EINVAL {
                let code = errno
                close(fd)
                throw Self.error(path, "cannot write: \(systemErrorMessage(code))")
            }
            if path != "-" && close(fd) != 0 { throw Self.error(path, "cannot write: \(systemErrorMessage(errno))") }
            return
        }
        defer { Interruption.unregisterTemporaryFile() }
        if Interruption.requested {
            close(fd); unlink(temporaryPath)
            Interruption.note("\(path) was left unchanged")
            return
        }
        // On power loss the rename must not reach the disk before the data.
        if fsync(fd) != 0 && errno != EINVAL {
            let code = errno
            close(fd); unlink(temporaryPath)
            throw Self.error(path, "cannot write: \(systemErrorMessage(code))")
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw Self.error(path, "cannot write: \(systemErrorMessage(code))")
        }
        if rename(temporaryPath, finalPath) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw Self.error(path, "cannot replace: \(systemErrorMessage(code))")
        }
    }

    /// Abandons the output: a temporary file is removed, a direct output closed.
    public consuming func discard() {
        finished = true
        abandon()
    }

    private func abandon() {
        if let temporaryPath {
            close(fd); unlink(temporaryPath)
            Interruption.unregisterTemporaryFile()
        } else if path != "-" {
            close(fd)
        }
    }

    /// Writes all of `text`, then commits; any failure removes the temporary file.
    public static func write(_ text: String, to path: String, editingInput: Bool = false) throws(TraceError) {
        try OutputFile(path: path, editingInput: editingInput).finish(writing: text)
    }

    /// Writes all of `text` into an output opened earlier (so that a path that cannot be
    /// written fails before a long run, not after it), then commits.
    public consuming func finish(writing text: String) throws(TraceError) {
        var text = text
        let code = text.withUTF8 { ByteOutput.writeAll(fd, UnsafeMutablePointer(mutating: $0.baseAddress!), $0.count) }
        if code != 0 {
            let path = self.path
            discard()
            throw Self.error(path, "cannot write: \(systemErrorMessage(code))")
        }
        try commit()
    }

    static func error(_ path: String, _ message: String) -> TraceError {
        TraceError(file: displayName(path), line: 0, column: 0, message: message)
    }
}

/// Every file this process opened as an input, so an output can refuse to overwrite one
/// (names can differ: links, `./`, standard input). Compared by device and inode; an entry
/// counts only while its path (or standard input) still is that file, so an inode reused
/// after a deletion is no false match in a long-running process.
public enum InputFiles {
    private struct Identity { var path: String?; var device: UInt64; var inode: UInt64 }
    private static let identities = Mutex<[Identity]>([])

    /// Records the file open as `fd`, read from `path` (nil: standard input).
    static func record(_ fd: Int32, path: String?) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        let identity = Identity(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        identities.withLock { $0.append(identity) }
    }

    /// Records a file read some other way (a config, a motion script) as an input.
    public static func record(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        record(fd, path: path)
        close(fd)
    }

    static func contains(device: UInt64, inode: UInt64) -> Bool {
        let candidates = identities.withLock { $0.filter { $0.device == device && $0.inode == inode } }
        return candidates.contains { identity in
            var info = stat()
            let found = identity.path.map { stat($0, &info) == 0 } ?? (fstat(STDIN_FILENO, &info) == 0)
            return found && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
        }
    }
}

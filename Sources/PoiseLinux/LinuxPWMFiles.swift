import PoiseHAL
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

/// ``PWMFileSystem`` on real files: `/sys/class/pwm` on a board, a directory tree in tests.
///
/// Counts the writes it makes (`writes`), so a test or `poise` can check how many system
/// calls a tick cost.
public struct LinuxPWMFiles: PWMFileSystem {
    /// Every `write` so far, successful or not.
    public private(set) var writes = 0

    public init() {}

    public func exists(_ path: String) -> Bool {
        path.withCString { system_access($0, F_OK) } == 0
    }

    public mutating func openForWriting(_ path: String) -> Result<CInt, Errno> {
        path.withCString { name in valueOrErrno { system_open(name, O_WRONLY | O_CLOEXEC) } }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        writes += 1
        return Self.writeAtStart(fd, bytes)
    }

    /// `pwrite(fd, bytes, count, 0)`; a short write is `EIO`. Excluded from performance
    /// analysis like the system call it wraps.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeAtStart(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        switch valueOrErrno({ system_pwrite(fd, bytes.baseAddress, bytes.count, 0) }) {
        case .success(let written): written == bytes.count ? nil : .ioError
        case .failure(let errno): errno
        }
    }

    public mutating func close(_ fd: CInt) {
        _ = system_close(fd)
    }

    public mutating func pause(milliseconds: Int) {
        _ = system_usleep(UInt32(milliseconds * 1000))
    }
}

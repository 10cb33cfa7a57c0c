import CI2C
import SystemPackage
#if canImport(Glibc)
import Glibc
import PoiseHAL
#endif

/// ``PWMFileSystem`` on real files: `/sys/class/pwm` on a board, a directory tree in tests.
///
/// Counts the writes it makes (`writes`), so a test or `poise` can check how many system
/// calls a tick cost.
public struct SysfsFiles: PWMFileSystem {
    /// Every `write` so far, successful or not.
    public private(set) var writes = 0

    public init() {}

    public func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    public mutating func openForWriting(_ path: String) -> Result<CInt, Errno> {
        do {
            return .success(try FileDescriptor.open(FilePath(path), .writeOnly, options: [.closeOnExec]).rawValue)
        } catch let errno as Errno {
            return .failure(errno)
        } catch {
            return .failure(.ioError)
        }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        writes += 1
        return Kernel.pwriteAtStart(fd, bytes)
    }

    public mutating func close(_ fd: CInt) {
        try? FileDescriptor(rawValue: fd).close()
    }

    public mutating func pause(milliseconds: Int) {
        usleep(UInt32(milliseconds * 1000))
    }
}

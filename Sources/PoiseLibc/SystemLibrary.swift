// The C library for the Embedded Swift builds (the board binary, scripts/build-embedded):
// there is no Glibc overlay there, so the C library comes from the CPoiseLibc module (glibc's
// own headers), and this module gives its shims the names and types Glibc's Swift overlay
// gives them on the host. A file at the OS edge imports this when `hasFeature(Embedded)` and
// Glibc otherwise, so the files doing system calls are the same source both ways. The host
// build compiles nothing of this module.
#if hasFeature(Embedded)
@_exported import CPoiseLibc

/// The calling thread's `errno`, as Glibc's overlay declares it.
public var errno: Int32 {
    get { poise_libc_errno() }
    set { poise_libc_set_errno(newValue) }
}

/// open(2) with the overlay's signatures (the C function is variadic).
public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { poise_libc_open(path, flags, 0) }
public func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { poise_libc_open(path, flags, mode) }

/// ioctl(2) with a pointer argument, as the overlay declares it (the C function is variadic).
public func ioctl(_ fd: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer) -> Int32 { poise_libc_ioctl(fd, request, pointer) }

/// The file-type bits typed `mode_t` as the overlay types them (the C macros import as Int32).
public let S_IFMT: mode_t = 0o170000
public let S_IFDIR: mode_t = 0o040000
public let S_IFREG: mode_t = 0o100000
public let S_IFLNK: mode_t = 0o120000

/// Synchronization's `Mutex` is not in the Embedded standard library for bare-metal
/// triples; this one, over a pthread mutex, has the same shape for the uses here (a global
/// `let` locked around short updates).
public final class Mutex<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: consuming Value) {
        value = initialValue
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
#endif

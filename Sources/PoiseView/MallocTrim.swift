#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim`, which Swift's Glibc module does not declare: gives the free memory
/// at the ends and in the middle of malloc's arenas back to the system. A no-op elsewhere.
enum MallocTrim {
    typealias Function = @convention(c) (Int) -> Int32
    nonisolated(unsafe) static let function: Function? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }()

    static func run() { _ = function?(0) }
}

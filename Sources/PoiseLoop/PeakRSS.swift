#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif

/// Peak resident set size of this process, bytes (getrusage's ru_maxrss is in KiB on Linux).
public func peakResidentSetBytes() -> Int {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024
}

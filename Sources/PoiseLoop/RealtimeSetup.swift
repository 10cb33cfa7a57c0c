import CPoiseRealtime
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif

/// Real-time settings for the loop thread. Each one the system refuses becomes one warning;
/// the loop runs anyway (a Pi without CAP_SYS_NICE still works, with more jitter).
public struct RealtimeSetup: Sendable {
    /// SCHED_FIFO priority 1…99; 0 leaves normal scheduling.
    public var priority: Int
    /// CPU to pin the loop thread to; -1 for any.
    public var cpu: Int
    /// mlockall, so no tick waits for a page fault.
    public var lockMemory: Bool

    public init(priority: Int, cpu: Int, lockMemory: Bool) {
        self.priority = priority
        self.cpu = cpu
        self.lockMemory = lockMemory
    }

    /// Applies the settings to the calling thread; returns one line per setting refused.
    public func apply() -> [String] {
        var warnings: [String] = []
        if priority > 0, let warning = Self.schedule(priority: priority, limit: Self.rtprioLimit()) { warnings.append(warning) }
        if cpu >= 0 {
            let rc = poise_pin_thread_to_cpu(Int32(cpu))
            if rc != 0 {
                warnings.append("cannot pin the loop to CPU \(cpu) (\(String(cString: strerror(rc)))); it runs on any CPU")
            }
        }
        if lockMemory {
            // MCL_ONFAULT (Linux 4.4+): lock each page when it is first touched instead of
            // faulting in every mapping now — a whole static binary and every thread stack
            // would otherwise become resident. A page the loop has used is never paged out.
            if mlockall(MCL_CURRENT | MCL_FUTURE | 4 /* MCL_ONFAULT */) != 0 {
                let e = errno
                warnings.append("mlockall not permitted (\(String(cString: strerror(e)))); pages may be swapped — raise LimitMEMLOCK or grant CAP_IPC_LOCK")
            }
        }
        return warnings
    }

    /// Asks for SCHED_FIFO at `priority`; refused, at the highest priority the process's
    /// RLIMIT_RTPRIO (`limit`) permits without privilege. Nil when `priority` was granted,
    /// else what the loop runs with and how to grant it.
    static func schedule(priority: Int, limit: Int) -> String? {
        var param = sched_param(sched_priority: Int32(priority))
        let rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)
        if rc == 0 { return nil }
        let grant = "a busy machine can stall the loop (safety.stall_ms) and fail it safe; grant CAP_SYS_NICE, "
            + "or LimitRTPRIO=\(priority) / `ulimit -r \(priority)` (see docs/deploy.md)"
        if limit > 0 && limit < priority {
            var lower = sched_param(sched_priority: Int32(limit))
            if pthread_setschedparam(pthread_self(), SCHED_FIFO, &lower) == 0 {
                return "SCHED_FIFO priority \(priority) not permitted (RLIMIT_RTPRIO is \(limit)); running at priority \(limit) — \(grant)"
            }
        }
        return "SCHED_FIFO priority \(priority) not permitted (\(String(cString: strerror(rc)))); running with normal scheduling — \(grant)"
    }

    /// The soft RLIMIT_RTPRIO: the highest SCHED_FIFO priority an unprivileged process may take.
    static func rtprioLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0 else { return 0 }
        return Int(min(limit.rlim_cur, 99))  // RLIM_INFINITY is the largest value
    }
}

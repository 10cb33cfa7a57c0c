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

/// The one signal policy of every long-running `poise` command (docs/robustness.md).
///
/// After `install()`, the first SIGINT or SIGTERM only sets a flag: `TraceReader.next()`
/// then reports the end of the trace, so the command finishes the row in hand, flushes and
/// closes as usual. `OutputFile.commit()` removes the temporary file of a regular output
/// (the old file is left as it was); standard output, pipes and devices keep what was
/// written, which ends on a whole row. The command then prints one line and exits with
/// 128 + the signal number (130, 143). A second signal removes the temporary file and
/// exits at once.
public enum Interruption {
    static let received = Atomic<Int32>(0)
    /// The address of a `strdup`ed path (0: none), so the signal handler can remove the
    /// file without touching Swift objects.
    static let temporaryFile = Atomic<Int>(0)
    private static let notes = Mutex<[String]>([])

    /// Routes SIGINT and SIGTERM to the flag (with restarted system calls).
    public static func install() {
        _ = received.load(ordering: .relaxed)  // initialise the globals outside the handler
        _ = temporaryFile.load(ordering: .relaxed)
        signal(SIGINT, interruptionHandler)
        signal(SIGTERM, interruptionHandler)
        // A parent may have left them blocked (the mask is inherited): Ctrl-C must work.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signal received, or 0.
    public static var signalNumber: Int32 { received.load(ordering: .relaxed) }

    /// Whether a signal asked the command to stop.
    /// (Not inlined: the real-time checks cannot see into a global's initialiser; one
    /// call per row costs about a nanosecond.)
    @inline(never) @_semantics("no_performance_analysis")
    public static var requested: Bool { received.load(ordering: .relaxed) != 0 }

    /// What the interrupted command left behind, for the final message.
    public static func note(_ text: String) { notes.withLock { $0.append(text) } }

    /// One line for standard error: which signal, and what happened to the outputs.
    public static var message: String {
        let name = signalNumber == SIGINT ? "SIGINT" : signalNumber == SIGTERM ? "SIGTERM" : "signal \(signalNumber)"
        let details = notes.withLock { $0 }
        return "interrupted by \(name)" + (details.isEmpty ? "" : "; " + details.joined(separator: "; "))
    }

    static func registerTemporaryFile(_ path: String) {
        let copy = Int(bitPattern: strdup(path))
        let old = temporaryFile.exchange(copy, ordering: .sequentiallyConsistent)
        free(UnsafeMutableRawPointer(bitPattern: old))
    }

    static func unregisterTemporaryFile() {
        let old = temporaryFile.exchange(0, ordering: .sequentiallyConsistent)
        free(UnsafeMutableRawPointer(bitPattern: old))
    }
}

/// Only async-signal-safe work: an atomic exchange, unlink and _exit.
private func interruptionHandler(_ signalNumber: Int32) {
    if Interruption.received.exchange(signalNumber, ordering: .sequentiallyConsistent) != 0 {
        if let path = UnsafePointer<CChar>(bitPattern: Interruption.temporaryFile.load(ordering: .sequentiallyConsistent)) {
            unlink(path)
        }
        _exit(128 + signalNumber)
    }
}

#if hasFeature(Embedded)
import PoiseLibc  // the board: its Mutex (Synchronization has none there)
#else
import Synchronization
#endif

/// Problems a reader recovers from, kept for the command to print once at the end.
///
/// Today there is one: a binary trace whose last record is cut off (a recording stopped by
/// a power loss). Readers stop at the last whole record and report it here; `poise` prints
/// `poise: warning: FILE:RECORD:1: truncated record: …` and still exits 0. With `strict`
/// set, the reader throws the same message as an error instead.
public enum TraceWarnings {
    private static let state = Mutex<(strict: Bool, messages: [String])>((false, []))

    /// Whether recoverable problems are errors (`--strict`).
    public static var strict: Bool {
        get { state.withLock { $0.strict } }
        set { state.withLock { $0.strict = newValue } }
    }

    static func report(_ error: TraceError, ignoredBytes: Int) {
        let text = "\(error); read up to the last whole record, \(ignoredBytes) bytes after it ignored"
        state.withLock { $0.messages.append(text) }
    }

    /// Any other recoverable problem, one line with the file (and position when known).
    public static func note(_ text: String) {
        state.withLock { $0.messages.append(text) }
    }

    /// The warnings so far, without clearing them.
    public static var pending: [String] { state.withLock { $0.messages } }

    /// The warnings so far, each once; clears them.
    public static func take() -> [String] {
        state.withLock { state in
            var seen: Set<String> = []
            let unique = state.messages.filter { seen.insert($0).inserted }
            state.messages = []
            return unique
        }
    }
}

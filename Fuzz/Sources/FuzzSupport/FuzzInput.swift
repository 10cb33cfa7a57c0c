#if canImport(Glibc)
import Glibc
#endif

/// One fuzz input as a file, for readers that take a path: written to the same file in
/// the temporary directory each time (the readers stream from a descriptor).
public enum FuzzInput {
    public static let path: String = {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(directory)/poise-fuzz-\(getpid()).input"
    }()

    /// Writes the input to `path`; false if the file system refused.
    public static func write(_ data: UnsafePointer<UInt8>, _ size: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var done = 0
        while done < size {
            let n = Glibc.write(fd, data + done, size - done)
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    /// The input as text, invalid UTF-8 repaired (the loaders take Strings).
    public static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// Stops the run when an error message is missing its position or file name — the
    /// promise every reader makes — so libFuzzer records the input.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition {
            var line = "fuzz invariant broken: \(message())\n"
            line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
            abort()
        }
    }
}

/// libFuzzer's driver: `FuzzTarget_main` (the entry SwiftPM links an executable target to)
/// hands the process over to it with the target's test function.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
public typealias CArguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<CArguments?>,
                         _ test: FuzzTest) -> Int32

public func runFuzzer(_ argc: Int32, _ argv: CArguments?, _ test: FuzzTest) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, test)
}

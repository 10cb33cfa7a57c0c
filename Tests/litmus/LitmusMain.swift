// `poise-litmus`: stresses the lock-free hand-overs between the tick and its neighbour threads
// (PoiseThreads: TripleBuffer, SettingsMailbox, TickRecordRing) from many threads at once and
// checks what each reader gets: never a torn value, never an older value after a newer one,
// nothing lost or taken twice. Built in Embedded Swift for aarch64 (scripts/litmus) and run
// under qemu-aarch64 and in the Arm VM (scripts/kernel-test-arm64); natively on a Pi it tests
// the Arm memory model itself (docs/kernel-tests.md says what emulation cannot show).
//
//   poise-litmus [--iterations N] [--pairs P]
//
// Prints one line per hand-over (PASS/FAIL) and per control (reorderings counted, never a
// failure), then `litmus: N passed, N failed`. Exit 1 on any failure, 64 on a usage error.
#if hasFeature(Embedded)
import PoiseLibc
#else
import Glibc
#endif

/// The run's size: each hand-over is exercised by `pairs` writer/reader pairs at once, each
/// pair handing over `iterations` values.
struct LitmusSize {
    var iterations = 100_000
    var pairs = 3
}

enum Litmus {
    static func main(_ arguments: [String]) -> Int32 {
        var size = LitmusSize()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
                printLine("poise-litmus: \(name) needs a positive number\nusage: poise-litmus [--iterations N] [--pairs P]")
                return 64
            }
            switch name {
            case "--iterations": size.iterations = value
            case "--pairs": size.pairs = value
            default:
                printLine("poise-litmus: unknown option '\(name)'\nusage: poise-litmus [--iterations N] [--pairs P]")
                return 64
            }
            index += 2
        }
        var passed = 0
        var failed = 0
        for outcome in [tripleBufferLitmus(size), settingsMailboxLitmus(size), tickRecordRingLitmus(size)] {
            printLine((outcome.failures == 0 ? "PASS " : "FAIL ") + outcome.summary)
            if outcome.failures == 0 { passed += 1 } else { failed += 1 }
        }
        printLine("control " + messagePassingControl(size))
        printLine("control " + storeBufferingControl(size, sequentiallyConsistent: false))
        printLine("control " + storeBufferingControl(size, sequentiallyConsistent: true))
        printLine("litmus: \(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    static func printLine(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}

#if hasFeature(Embedded)
/// The C entry point: Embedded Swift has no `CommandLine`.
@_cdecl("main")
public func litmusMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for index in 1..<max(1, Int(argc)) {
        if let argument = argv[index] { arguments.append(String(cString: argument)) }
    }
    return Litmus.main(arguments)
}
#else
@main
struct LitmusMainProgram {
    static func main() { exit(Litmus.main(Array(CommandLine.arguments.dropFirst()))) }
}
#endif

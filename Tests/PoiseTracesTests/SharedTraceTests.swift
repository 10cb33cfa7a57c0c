#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseTraces
import Testing

/// The BROAD recordings in `$POISE_TRACES`, else `<repo>/../shared/traces` (or one level
/// further up, for a git worktree), when present; users' clones have none.
@Suite struct SharedTraceTests {
    static let directory: String = {
        if let path = getenv("POISE_TRACES") { return String(cString: path) }
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }  // → repository root
        let candidates = [root + "/../shared/traces", root + "/../../shared/traces"]
        return candidates.first { (try? CSVTraceReader(path: $0 + "/" + trials[0] + ".csv")) != nil } ?? candidates[0]
    }()

    static let trials = [
        "01_undisturbed_slow_rotation_A", "06_undisturbed_fast_rotation_A", "10_undisturbed_slow_translation_A",
        "21_undisturbed_fast_combined", "24_disturbed_tapping_A", "28_disturbed_stationary_magnet_A",
        "32_disturbed_attached_magnet_1cm",
    ]

    static var available: Bool {
        (try? CSVTraceReader(path: directory + "/" + trials[0] + ".csv")) != nil
    }

    /// The skip reason, word for word as scripts/allowed-skips.txt lists it.
    static let absentNote: Comment = "../shared/traces is absent (the BROAD recordings are not in users' clones)"

    @Test(.enabled(if: available, absentNote),
          arguments: trials)
    func readsEveryRow(_ trial: String) throws {
        var reader = try TraceReader(path: Self.directory + "/" + trial + ".csv")
        let metadata = reader.metadata
        #expect(metadata["source"] == "BROAD")
        #expect(metadata["trial"] == trial)
        let expected = try #require(Int(metadata["samples"] ?? ""))
        let movement = try #require(metadata["movement"])
        let ranges = movement.split(separator: ",").map { $0.split(separator: ":").compactMap { Int($0) } }
        #expect(ranges.allSatisfy { $0.count == 2 && $0[0] < $0[1] && $0[1] <= expected })
        #expect(reader.columns == TraceColumns.standard())
        var count = 0
        var withTruth = 0
        var previous = -Double.infinity
        while let sample = try reader.next() {
            #expect(sample.time > previous)
            previous = sample.time
            #expect(sample.magnetometer != nil)
            if sample.truth != nil { withTruth += 1 }
            count += 1
        }
        #expect(count == expected)
        #expect(withTruth > count / 2)
    }
}

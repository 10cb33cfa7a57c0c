import Foundation
import Testing
import PoiseFusion
import PoiseMath

enum ClassicAccuracyTraces {
    /// `$POISE_TRACES`, else `<repo>/../shared/traces`, else one level further up (a
    /// worktree under `wt/`); nil when absent.
    static let directory: URL? = {
        if let path = ProcessInfo.processInfo.environment["POISE_TRACES"] {
            return FileManager.default.fileExists(atPath: path + "/README.md") ? URL(fileURLWithPath: path) : nil
        }
        var directory = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { directory = directory.deletingLastPathComponent() }
        for _ in 0..<2 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("shared/traces")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("README.md").path) {
                return candidate
            }
        }
        return nil
    }()
}

/// Accuracy on the BROAD trials (Laidig et al., Data 6(7):72, 2021) in `../shared/traces`,
/// scored with BROAD's metric. Opt-in (`POISE_ACCURACY=1`): it reads ~60 MB and is slow in
/// debug builds. Prints each filter's per-trial total RMSE in degrees.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["POISE_ACCURACY"] == "1",
                "opt-in: set POISE_ACCURACY=1 to score the filters on ../shared/traces (slow)"),
       .enabled(if: ClassicAccuracyTraces.directory != nil,
                "../shared/traces is absent (the BROAD recordings are not in users' clones)"))
struct ClassicFilterAccuracyTests {
    static var traces: URL? { ClassicAccuracyTraces.directory }

    struct Trial {
        var name: String
        var samples: [InertialSample] = []
        var dt: [Float] = []
        var reference: [Quaternion?] = []
        var scored: [Range<Int>] = []
    }

    static func load() throws -> [Trial] {
        guard let traces else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: traces.path)) ?? []
        return try files.filter { $0.hasSuffix(".csv") }.sorted().map { name in
            let text = try String(contentsOf: traces.appendingPathComponent(name), encoding: .utf8)
            var trial = Trial(name: name)
            var previousTime: Float?
            var sawHeader = false
            for line in text.split(separator: "\n") {
                if line.hasPrefix("#") {
                    if line.hasPrefix("# movement=") {
                        for range in line.dropFirst("# movement=".count).split(separator: ",") {
                            let bounds = range.split(separator: ":").compactMap { Int($0) }
                            if bounds.count == 2 { trial.scored.append(bounds[0]..<bounds[1]) }
                        }
                    }
                    continue
                }
                if !sawHeader { sawHeader = true; continue }
                let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Float($0) }
                guard f.count >= 14, let t = f[0] else { continue }
                trial.samples.append(InertialSample(
                    accelerometer: SIMD3(f[1] ?? .nan, f[2] ?? .nan, f[3] ?? .nan),
                    gyroscope: SIMD3(f[4] ?? .nan, f[5] ?? .nan, f[6] ?? .nan),
                    magnetometer: SIMD3(f[7] ?? .nan, f[8] ?? .nan, f[9] ?? .nan)))
                trial.dt.append(previousTime.map { t - $0 } ?? 0.0035)
                previousTime = t
                if let w = f[10], let x = f[11], let y = f[12], let z = f[13] {
                    trial.reference.append(Quaternion(w: w, x: x, y: y, z: z).normalized)
                } else {
                    trial.reference.append(nil)
                }
            }
            return trial
        }
    }

    /// BROAD's total-error RMSE (degrees) over the scored rows; for 6D the constant heading
    /// offset minimising the heading RMSE is removed first.
    static func score(_ trial: Trial, _ estimates: [Quaternion], sixAxis: Bool) -> Double {
        var errors: [Quaternion] = []
        for range in trial.scored {
            for i in range where i < estimates.count {
                if let r = trial.reference[i] { errors.append(estimates[i].normalized * r.conjugate) }
            }
        }
        func rmse(offset: Double, heading: Bool) -> Double {
            let turn = Quaternion(w: Float(cos(-offset / 2)), x: 0, y: 0, z: Float(sin(-offset / 2)))
            var sum = 0.0
            for e in errors {
                let q = turn * e
                let w = Double(q.w), z = Double(q.z)
                let angle = heading ? 2 * atan(abs(z / w)) : 2 * acos(min(1, abs(w)))
                sum += angle * angle
            }
            return (sum / Double(max(errors.count, 1))).squareRoot() * 180 / .pi
        }
        guard sixAxis else { return rmse(offset: 0, heading: false) }
        var best = 0.0
        var bestError = Double.infinity
        for degrees in stride(from: -180.0, to: 180.0, by: 2.0) {
            let e = rmse(offset: degrees * .pi / 180, heading: true)
            if e < bestError { bestError = e; best = degrees }
        }
        var low = best - 2, high = best + 2
        for _ in 0..<40 {
            let a = low + (high - low) / 3, b = high - (high - low) / 3
            if rmse(offset: a * .pi / 180, heading: true) < rmse(offset: b * .pi / 180, heading: true) {
                high = b
            } else {
                low = a
            }
        }
        return rmse(offset: (low + high) / 2 * .pi / 180, heading: false)
    }

    static func run<F: AttitudeFilter>(_ filter: F, _ trial: Trial, sixAxis: Bool) -> [Quaternion] {
        var filter = filter
        var estimates: [Quaternion] = []
        estimates.reserveCapacity(trial.samples.count)
        for (sample, dt) in zip(trial.samples, trial.dt) {
            var s = sample
            if sixAxis { s.magnetometer = nil }
            filter.update(s, dt: dt)
            estimates.append(filter.attitude)
        }
        return estimates
    }

    static func report(_ label: String, _ values: [Double]) {
        let mean = values.reduce(0, +) / Double(max(values.count, 1))
        print(label, values.map { String(format: "%.2f", $0) }.joined(separator: " "),
              String(format: "mean %.2f", mean))
    }

    @Test func madgwickReproducesBroadsPublishedNumbers() throws {
        let trials = try Self.load()
        try #require(trials.count == 9, "expected the 9 BROAD trials of ../shared/traces")
        // Madgwick 9D, β = 0.12, no ramp, started at the identity like the reference code.
        let published = [2.31, 2.31, 3.57, 12.30, 7.16, 1.77, 8.33, 15.76, 3.27]
        var measured: [Double] = []
        for trial in trials {
            var filter = MadgwickFilter(settings: .init(beta: 0.12, startupTime: 0))
            filter.reset(attitude: Quaternion(w: 0.70710678, x: 0, y: 0, z: 0.70710678))
            measured.append(Self.score(trial, Self.run(filter, trial, sixAxis: false), sixAxis: false))
        }
        Self.report("Madgwick 9D (β 0.12)", measured)
        for (m, p) in zip(measured, published) { #expect(abs(m - p) < 0.05, "\(m) vs published \(p)") }
    }

    @Test func classicFiltersWithDefaults() throws {
        let trials = try Self.load()
        try #require(trials.count == 9, "expected the 9 BROAD trials of ../shared/traces")
        for sixAxis in [false, true] {
            let d = sixAxis ? "6D" : "9D"
            Self.report("Complementary \(d)", trials.map { Self.score($0, Self.run(ComplementaryFilter(), $0, sixAxis: sixAxis), sixAxis: sixAxis) })
            Self.report("Mahony \(d)", trials.map { Self.score($0, Self.run(MahonyFilter(), $0, sixAxis: sixAxis), sixAxis: sixAxis) })
            Self.report("Madgwick \(d)", trials.map { Self.score($0, Self.run(MadgwickFilter(), $0, sixAxis: sixAxis), sixAxis: sixAxis) })
            Self.report("MEKF \(d)", trials.map { Self.score($0, Self.run(MultiplicativeKalmanFilter(), $0, sixAxis: sixAxis), sixAxis: sixAxis) })
        }
    }
}

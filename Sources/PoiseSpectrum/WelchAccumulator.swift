/// Welch's averages built as the samples arrive, one row at a time: memory is one segment
/// per channel and one density per channel (and per throttle bin), whatever the recording's
/// length.
///
/// A row completes a segment every `segmentLength / 2` rows once the first is full; its
/// periodograms are added to the sums in the order ``WelchEstimator/density(_:)`` and
/// ``ThrottleSpectrum`` add them over a whole signal, so the result is bit for bit theirs.
public struct WelchAccumulator: Sendable {
    public let estimator: WelchEstimator
    /// Which channels are gyroscope axes (summed into the throttle slices).
    public let gyroscope: [Bool]
    public let throttleBinCount: Int
    /// The last samples of each channel (NaN already 0), at most one segment.
    var windows: [[Double]]
    /// The last throttle values (as given), when throttle is fed.
    var throttleWindow: [Double] = []
    /// Per channel: the sum of the segments' periodograms.
    public private(set) var sums: [[Double]]
    /// Segments averaged so far.
    public private(set) var segments = 0
    /// Rows seen.
    public private(set) var rows = 0
    /// Per throttle bin: segments, and the sum of the gyroscope axes' periodograms.
    public private(set) var throttleCounts: [Int]
    public private(set) var throttleSums: [[Double]]
    /// Whether any throttle above 0.01 was fed (the motors turned).
    public private(set) var throttleSeen = false
    /// The sum and count of the throttle values above 0.05 (motors turning): their mean is the
    /// command the rotors' lines in the spectrum belong to.
    public private(set) var runningThrottleSum = 0.0
    public private(set) var runningThrottleCount = 0

    public init(estimator: WelchEstimator, gyroscope: [Bool], throttleBinCount: Int = 20) {
        self.estimator = estimator
        self.gyroscope = gyroscope
        self.throttleBinCount = max(1, throttleBinCount)
        let width = estimator.segmentLength / 2 + 1
        windows = [[Double]](repeating: [], count: gyroscope.count)
        for i in windows.indices { windows[i].reserveCapacity(estimator.segmentLength) }
        sums = [[Double]](repeating: [Double](repeating: 0, count: width), count: gyroscope.count)
        throttleCounts = [Int](repeating: 0, count: self.throttleBinCount)
        throttleSums = [[Double]](repeating: [Double](repeating: 0, count: width), count: self.throttleBinCount)
    }

    /// Adds one row: a value per channel (in the order of `gyroscope`) and, for a recording
    /// that drives motors, the mean motor command (0…1).
    public mutating func append(_ values: [Double], throttle: Double? = nil) {
        for i in windows.indices { windows[i].append(values[i].isFinite ? values[i] : 0) }
        if let throttle {
            throttleWindow.append(throttle)
            if throttle > 0.01 { throttleSeen = true }
            if throttle > 0.05 { runningThrottleSum += throttle; runningThrottleCount += 1 }
        }
        rows += 1
        guard windows.first?.count == estimator.segmentLength else { return }
        addSegment()
        let half = estimator.segmentLength / 2
        for i in windows.indices { windows[i].removeFirst(half) }
        if !throttleWindow.isEmpty { throttleWindow.removeFirst(min(half, throttleWindow.count)) }
    }

    mutating func addSegment() {
        let n = estimator.segmentLength
        var bin: Int? = nil
        if throttleWindow.count == n {
            let slice = throttleWindow.filter(\.isFinite)
            if !slice.isEmpty {
                let mean = slice.reduce(0, +) / Double(slice.count)
                bin = max(0, min(throttleBinCount - 1, Int(mean * Double(throttleBinCount))))
                throttleCounts[bin!] += 1
            }
        }
        for c in windows.indices {
            let p = estimator.periodogram(windows[c], start: 0)
            for k in sums[c].indices { sums[c][k] += p[k] }
            if let bin, gyroscope[c] {
                for k in 0..<throttleSums[bin].count { throttleSums[bin][k] += p[k] }
            }
        }
        segments += 1
    }

    /// The averaged density of channel `c` (empty before the first whole segment).
    public func density(_ c: Int) -> [Double] {
        segments == 0 ? [] : sums[c].map { $0 / Double(segments) }
    }

    /// The mean command while the motors turned (above 0.05), if they did.
    public var runningThrottle: Double? {
        runningThrottleCount > 0 ? runningThrottleSum / Double(runningThrottleCount) : nil
    }
}

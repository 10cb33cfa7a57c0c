#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseConfig
import PoiseEvaluation
import PoiseFlightSettings
import PoiseFusion
import PoiseSensors
import PoiseSettings
import PoiseTraces
import PoiseMath

/// The score of one trace, plus the per-row error for plots.
public struct TraceEvaluation: Sendable {
    public var result: TrialResult
    /// Time of each scored row, s.
    public var times: [Double]
    /// Total error of each scored row, degrees (after the 6D heading offset, if removed).
    public var totalErrors: [Double]
}

/// Runs a trace with ground truth through a filter and scores it with BROAD's metric over
/// the `# movement=…` rows (every row with a reference when the trace has no such line).
public struct TraceEvaluator: FilterKindWork, ~Copyable {
    var reader: TraceReader
    /// The samples' way into the filter, with the configuration's calibration.
    let feed: TraceFeed
    /// Called every 16 384 rows with the count so far (a progress bar).
    let progress: (Int) -> Void

    /// Scores `reader` with the filter `FilterSettings.run` hands, the readings calibrated as
    /// `configuration` says (``TraceFeed/calibration(for:)``).
    public init(reader: consuming TraceReader, configuration: PoiseConfiguration, useMagnetometer: Bool,
                fallbackStep: Double = 0.01, progress: @escaping (Int) -> Void = { _ in }) {
        self.reader = reader
        feed = TraceFeed(configuration: configuration, useMagnetometer: useMagnetometer, fallbackStep: fallbackStep)
        self.progress = progress
    }

    public mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> TraceEvaluation {
        let metadata = reader.metadata
        let path = reader.path
        guard reader.layout.hasTruth else {
            throw ReplayError("\(path): no ground truth (columns qw,qx,qy,qz) to score against")
        }
        var ranges: [Range<Int>]? = nil
        if let movement = metadata["movement"] {
            do { ranges = try movementRanges(from: movement) } catch {
                throw ReplayError("\(path): in its `# movement=` line: \(error)")
            }
        }
        let sixD = !feed.useMagnetometer || !reader.layout.hasMagnetometer
        var scorer = BroadScorer()
        var times: [Double] = []
        var row = 0
        _ = try feed.run(&filter, reader: &reader) { sample, _, filter, _ in
            let scored = ranges.map { isScored(row: row, in: $0) } ?? true
            let before = scorer.scoredRows
            scorer.add(estimate: filter.attitude, reference: sample.truth, scored: scored)
            if scorer.scoredRows > before { times.append(sample.time) }
            row += 1
            if row & 0x3FFF == 0 { progress(row) }
            return true
        }
        if let ranges, !Interruption.requested {
            // Ranges past the end (a trace cut short, a hand-edited header) would score
            // nothing, or less than the header promises.
            if scorer.scoredRows == 0 {
                throw ReplayError("\(path): its `# movement=\(metadata["movement"] ?? "")` ranges hold no row of the trace "
                    + "(\(row) rows); nothing to score")
            }
            if let past = ranges.first(where: { $0.upperBound > row }) {
                TraceWarnings.note("\(path): `# movement=` range \(past.lowerBound):\(past.upperBound) runs past the "
                    + "trace's \(row) rows; scored the rows that exist")
            }
        }
        let result = scorer.result(removingHeadingOffset: sixD)
        let offset = sixD ? result.headingOffset * .pi / 180 : 0
        let (s, c) = (sin(offset / 2), cos(offset / 2))
        let totals = scorer.errors.map { e -> Double in
            // Rz(δ) ⊗ e: only w changes the total angle's computation.
            let w = c * e.x - s * e.w
            return 2 * acos(min(1, abs(w))) * 180 / .pi
        }
        return TraceEvaluation(result: result, times: times, totalErrors: totals)
    }
}

/// What the gyro filters took out, measured: the raw gyroscope's density against the filtered
/// one's (`gfx,gfy,gfz` of a recording) at each rotor line, from the same Welch segments.
public struct MeasuredAttenuation: Codable, Sendable, Equatable {
    /// The line's frequency in the recording, Hz.
    public var frequencyHz: Double
    /// The harmonic it is (1: the fundamental).
    public var harmonic: Int
    /// The gyroscope axis where the raw line is strongest.
    public var axis: String
    public var rawDecibels: Double
    public var filteredDecibels: Double
    /// raw − filtered, dB: how much less of the line the estimate and the loops saw.
    public var attenuationDecibels: Double

    /// One entry per harmonic line of `rotor`. `raw` and `filtered` hold the same gyroscope
    /// axes in the same order (names of `raw`'s), over the same frequencies. The densities are
    /// read at the line's bin or a neighbour, whichever is largest (a line between two bins).
    public static func at(_ rotor: RotorLines, raw: SpectrumAnalysis, filtered: SpectrumAnalysis) -> [MeasuredAttenuation] {
        let gyro = raw.spectra.indices.filter { raw.spectra[$0].name.hasPrefix("g") }
        let filteredGyro = filtered.spectra.indices.filter { filtered.spectra[$0].name.hasPrefix("g") }
        guard gyro.count == filteredGyro.count, !gyro.isEmpty, raw.frequencies.count == filtered.frequencies.count else { return [] }
        var result: [MeasuredAttenuation] = []
        for line in rotor.lines {
            guard case .harmonic(let n, _) = line.role else { continue }
            let f = line.peak.frequency
            guard let bin = raw.frequencies.indices.min(by: { abs(raw.frequencies[$0] - f) < abs(raw.frequencies[$1] - f) }) else { continue }
            let window = max(0, bin - 1)...min(raw.frequencies.count - 1, bin + 1)
            func peak(_ density: [Double]) -> Double { window.map { density[$0] }.max() ?? 0 }
            var best: MeasuredAttenuation? = nil
            for (r, g) in zip(gyro, filteredGyro) {
                let before = decibels(peak(raw.spectra[r].density)), after = decibels(peak(filtered.spectra[g].density))
                if best.map({ before > $0.rawDecibels }) ?? true {
                    best = MeasuredAttenuation(frequencyHz: f, harmonic: n, axis: raw.spectra[r].name, rawDecibels: before,
                                               filteredDecibels: after, attenuationDecibels: before - after)
                }
            }
            if let best { result.append(best) }
        }
        return result
    }
}

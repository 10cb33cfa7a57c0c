/// The analysis as `poise spectrum --json` prints it: plain values, NaN and ±∞ as null.
public struct SpectrumJSON: Codable, Sendable, Equatable {
    public struct Peak: Codable, Sendable, Equatable {
        public var frequencyHz: Double
        public var decibels: Double
        public var prominenceDecibels: Double
        public var axes: [String]
    }
    public struct Channel: Codable, Sendable, Equatable {
        public var name: String
        /// Density unit: unit²/Hz.
        public var unit: String
        public var decibels: [Double?]
    }
    public struct Throttle: Codable, Sendable, Equatable {
        public var binLowerEdges: [Double]
        public var segments: [Int]
        public var decibels: [[Double?]]
    }
    public struct PhaseDelay: Codable, Sendable, Equatable {
        public var frequencyHz: Double
        public var gainDecibels: Double
        public var phaseDegrees: Double
        public var delayMilliseconds: Double
    }
    public struct Filters: Codable, Sendable, Equatable {
        public var sampleRateHz: Double
        public var sections: Int
        public var phaseDelay: [PhaseDelay]
        public var gainDecibels: [Double?]
    }

    public var sampleRateHz: Double
    public var segmentLength: Int
    public var segments: Int
    public var resolutionHz: Double
    public var peakRule: String
    public var peaks: [Peak]
    public var frequenciesHz: [Double]
    public var channels: [Channel]
    public var throttle: Throttle?
    public var filters: Filters?
    /// The rotor's lines and the notch proposed for them (absent when no gyroscope peak).
    public var rotor: RotorJSON?
    /// Which gyroscope the channels `gx…gz` hold: `raw`, or `filtered` (`gfx…gfz`).
    public var signal: String?
    /// At each rotor line, the raw gyroscope against the filtered one, measured (absent
    /// when the recording has no `gfx,gfy,gfz`).
    public var measuredAttenuation: [MeasuredAttenuation]?

    public init(_ a: SpectrumAnalysis) {
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        sampleRateHz = a.sampleRate
        segmentLength = a.estimator.segmentLength
        segments = a.segmentCount
        resolutionHz = a.estimator.resolution
        peakRule = "strict local maxima at least \(a.peakRule.threshold) dB above the axis's median density from \(a.peakRule.minimumFrequency) Hz up; axes within one bin merged"
        peaks = a.peaks.map { Peak(frequencyHz: $0.frequency, decibels: $0.decibels, prominenceDecibels: $0.prominence, axes: $0.axes) }
        frequenciesHz = a.frequencies
        channels = a.spectra.map { Channel(name: $0.name, unit: "(\($0.unit))²/Hz", decibels: $0.density.map { finite(decibels($0)) }) }
        throttle = a.throttle.map { Throttle(binLowerEdges: $0.throttles, segments: $0.counts, decibels: $0.decibels.map { $0.map(finite) }) }
        filters = a.filters.map { f in
            Filters(sampleRateHz: f.sampleRate, sections: f.sections.count,
                    phaseDelay: GyroFilterResponse.reportFrequencies.map { hz in
                        let r = f.at(hz)
                        return PhaseDelay(frequencyHz: hz, gainDecibels: r.decibels, phaseDegrees: r.degrees, delayMilliseconds: r.delay(at: hz) * 1000)
                    },
                    gainDecibels: a.frequencies.map { finite(f.at($0).decibels) })
        }
    }
}

/// ``RotorLines`` as `poise spectrum --json` prints it.
public struct RotorJSON: Codable, Sendable, Equatable {
    public struct Line: Codable, Sendable, Equatable {
        /// Where the peak is in the recording, Hz.
        public var frequencyHz: Double
        /// `fundamental`, `harmonic`, `beside` (within 6 % of a rotor line) or `other`.
        public var role: String
        /// The harmonic (1 = the fundamental) a `harmonic` or `beside` line belongs to.
        public var harmonic: Int?
        /// The unfolded frequency of a harmonic, Hz.
        public var trueFrequencyHz: Double?
        public var folded: Bool
        public var axes: [String]
    }
    public var fundamentalHz: Double
    public var foldingRatesHz: [Double]
    public var decidedByThrottle: Bool
    public var lines: [Line]
    public var notch: NotchProposal
    public var configLines: [String]

    public init(_ r: RotorLines) {
        fundamentalHz = r.fundamental
        foldingRatesHz = r.foldingRates
        decidedByThrottle = r.decidedByThrottle
        lines = r.lines.map { line in
            switch line.role {
            case .harmonic(let n, let f):
                Line(frequencyHz: line.peak.frequency, role: n == 1 ? "fundamental" : "harmonic", harmonic: n,
                     trueFrequencyHz: f, folded: line.folded, axes: line.peak.axes)
            case .beside(let n):
                Line(frequencyHz: line.peak.frequency, role: "beside", harmonic: n, trueFrequencyHz: nil, folded: false, axes: line.peak.axes)
            case .other:
                Line(frequencyHz: line.peak.frequency, role: "other", harmonic: nil, trueFrequencyHz: nil, folded: false, axes: line.peak.axes)
            }
        }
        notch = r.proposal
        configLines = r.proposal.configLines()
    }
}

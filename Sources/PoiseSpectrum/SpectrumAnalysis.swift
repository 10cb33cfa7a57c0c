import PoiseFusion

/// One signal of a recording to analyse: a gyroscope or accelerometer axis.
public struct SpectrumChannel: Sendable {
    public var name: String
    /// Unit of the samples (`rad/s`, `m/s²`); the density is in unit²/Hz.
    public var unit: String
    public var values: [Double]

    public init(name: String, unit: String, values: [Double]) {
        self.name = name
        self.unit = unit
        self.values = values
    }

    /// A gyroscope axis (g…).
    public var isGyroscope: Bool { name.hasPrefix("g") }
}

/// Everything `poise spectrum` reports about a recording: the Welch density of each axis,
/// its peaks, the gyroscope spectrum by throttle, and the configured gyroscope filters'
/// response and phase delay.
public struct SpectrumAnalysis: Sendable {
    public let sampleRate: Double
    public let estimator: WelchEstimator
    public let segmentCount: Int
    public let frequencies: [Double]
    /// Per channel: name, unit and density (unit²/Hz, one value per frequency).
    public let spectra: [(name: String, unit: String, density: [Double])]
    public let peaks: [SpectralPeak]
    public let peakRule: PeakFinder
    /// Present when the recording drives motors.
    public let throttle: ThrottleSpectrum?
    /// The configured gyroscope filters, when any is on.
    public let filters: GyroFilterResponse?
    /// The mean motor command while the motors turned (above 0.05), for a recording that drives them.
    public let runningThrottle: Double?

    /// - Parameters:
    ///   - resolution: the widest bin wanted, Hz (the segment is the shortest power of two giving it).
    ///   - throttle: the mean motor command (0…1) per sample, for a quadrotor recording.
    ///   - filters, filterRate: the configured gyroscope filters and the rate they run at.
    public init(channels: [SpectrumChannel], sampleRate: Double, resolution: Double = 2, throttle: [Double]? = nil,
                filters: GyroFilterSettings? = nil, filterRate: Double? = nil, peakRule: PeakFinder = PeakFinder()) {
        let count = channels.map(\.values.count).min() ?? 0
        let estimator = WelchEstimator(sampleRate: sampleRate,
                                       segmentLength: WelchEstimator.segmentLength(sampleRate: sampleRate, resolution: resolution, sampleCount: count))
        var accumulator = WelchAccumulator(estimator: estimator, gyroscope: channels.map(\.isGyroscope))
        var row = [Double](repeating: 0, count: channels.count)
        for i in 0..<count {
            for c in channels.indices { row[c] = channels[c].values[i] }
            accumulator.append(row, throttle: throttle.flatMap { i < $0.count ? $0[i] : nil })
        }
        self.init(accumulated: accumulator, channels: channels.map { ($0.name, $0.unit) },
                  filters: filters, filterRate: filterRate, peakRule: peakRule)
    }

    /// The analysis of rows fed to `accumulator` as they were read (`poise spectrum` streams a
    /// recording this way); `channels` names the accumulator's channels in order.
    public init(accumulated accumulator: WelchAccumulator, channels: [(name: String, unit: String)],
                filters: GyroFilterSettings? = nil, filterRate: Double? = nil, peakRule: PeakFinder = PeakFinder()) {
        let estimator = accumulator.estimator
        sampleRate = estimator.sampleRate
        self.estimator = estimator
        segmentCount = accumulator.segments
        frequencies = estimator.frequencies
        spectra = channels.indices.map { (channels[$0].name, channels[$0].unit, accumulator.density($0)) }
        self.peakRule = peakRule
        peaks = peakRule.peaks(frequencies: frequencies, spectra: spectra.map { ($0.name, $0.density) })
        if accumulator.throttleSeen {
            self.throttle = ThrottleSpectrum(counts: accumulator.throttleCounts, sums: accumulator.throttleSums)
        } else {
            self.throttle = nil
        }
        runningThrottle = accumulator.runningThrottle
        if let filters, filters.isActive {
            self.filters = GyroFilterResponse(settings: filters, sampleRate: filterRate ?? sampleRate)
        } else {
            self.filters = nil
        }
    }
}

/// The configured gyroscope filters' response, every throttle notch at its reference
/// throttle (the hover it was set for).
public struct GyroFilterResponse: Sendable {
    public let settings: GyroFilterSettings
    public let sampleRate: Double
    public let sections: [BiquadCoefficients]

    public init(settings: GyroFilterSettings, sampleRate: Double) {
        self.settings = settings
        self.sampleRate = sampleRate
        var sections: [BiquadCoefficients] = []
        if settings.lowPassCutoff > 0 { sections.append(settings.lowPassSection(sampleRate: Float(sampleRate))) }
        for notch in settings.notches where notch.mode != .off {
            for h in 1...max(1, min(notch.harmonics, GyroFilterSettings.maximumHarmonics)) {
                sections.append(notch.section(harmonic: h, center: notch.centerFrequency, sampleRate: Float(sampleRate)))
            }
        }
        self.sections = sections
    }

    public func at(_ frequency: Double) -> FilterResponse {
        FilterResponse.of(sections, at: frequency, sampleRate: sampleRate)
    }

    /// The frequencies the phase delay is reported at, Hz: where attitude loops work.
    public static let reportFrequencies: [Double] = [10, 30]
}

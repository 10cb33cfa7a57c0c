import ArgumentParser
import Foundation
import PoiseConfig
import PoiseFusion
import PoiseReplay
import PoiseSpectrum
import PoiseTraces

/// `poise spectrum`: where the vibration is, and what the configured gyroscope filters do to it.
struct SpectrumCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "spectrum",
        abstract: "Power spectral density of a recording's gyroscope and accelerometer, with peaks and the gyro filters' response.",
        discussion: """
            Welch's method: Hann-windowed segments overlapping by half, each segment the shortest \
            power of two whose bins are at most --resolution Hz wide (2 Hz by default), the \
            periodograms averaged; densities in dB re 1 unit²/Hz. A peak is a strict local \
            maximum standing at least --threshold dB above its axis's median density (from 2 Hz \
            up); peaks of several axes within one bin are one peak, listed with every axis that \
            has it. For a recording that drives motors (out_ columns of channels whose source is \
            motor1…motor4), a second panel shows the gyroscope's density against the mean motor \
            command, as Blackbox Explorer does: set a throttle notch's center_hz from the line at \
            the hover throttle. The configured filter.gyro low-pass and notches (from --config, \
            else the recording's embedded configuration) are drawn over the spectrum, and their \
            phase lag at 10 Hz and 30 Hz is printed: what the loops pay for them.

            Examples:
              poise simulate --config configs/sim-quad-x.yaml --record quad.csv && poise spectrum quad.csv -o psd.svg
              poise spectrum run.csv --json > psd.json
              poise spectrum synth.csv --resolution 1 --config boards/poise.example.yaml
            """)

    @Argument(help: "A recording (`poise run/simulate --record`) or a trace (CSV or binary) with ax..gz.")
    var recording: String

    @Option(name: .shortAndLong, help: "Output SVG file (- for standard output; default psd.svg, none with --json unless given).")
    var output: String?

    @Flag(help: "Print the peaks, the densities, the throttle slices and the filters' phase delay as JSON on standard output (no SVG unless -o is given).")
    var json = false

    @Option(help: "The configuration whose filter.gyro filters are drawn (default: the recording's embedded one, if any).")
    var config: String?

    @Option(parsing: .unconditional, help: "Widest frequency bin wanted, Hz.")
    var resolution: Double = 2

    @Option(parsing: .unconditional, help: "How far above its axis's median density a local maximum must stand to count as a peak, dB.")
    var threshold: Double = 10

    enum Signal: String, ExpressibleByArgument, CaseIterable { case raw, filtered }

    @Option(help: "Which gyroscope gx…gz shows: raw (the sensor's), or filtered (gfx…gfz: after the configured filter.gyro low-pass and notches, as the estimate and the loops got it; recorded when those filters are on).")
    var signal: Signal = .raw

    @Flag(help: "Print no progress line while the recording is read.")
    var quiet = false

    @OptionGroup var reading: TraceInputOptions

    func validate() throws {
        guard resolution > 0, resolution.isFinite else { throw ValidationError("--resolution must be a positive number of Hz.") }
        guard threshold >= 0, threshold.isFinite else { throw ValidationError("--threshold must be 0 dB or more.") }
    }

    func execute() throws {
        Interruption.install()
        reading.apply()
        let axes = ["gx", "gy", "gz", "ax", "ay", "az"]
        // Two passes, so the recording is never held: the first counts the samples and finds
        // the mean rate (they set the segment length), the second feeds Welch's segments as
        // the rows arrive. Standard input cannot be read twice: its rows are kept.
        let progress = ProgressBar(total: nil, enabled: !quiet)
        let survey = try SpectrumSurvey(path: recording, keepRows: recording == "-", progress: { progress.update($0) })
        progress.finish()
        if Interruption.requested { return }
        var configuration: PoiseConfiguration? = try config.map { try loopConfiguration($0) }
        if configuration == nil {
            // The recording's own configuration draws its filters; one this version cannot read
            // only loses the overlay and the throttle slices, so it is a note, not an error.
            do { configuration = try EmbeddedConfiguration.configuration(in: survey.metadata, trace: recording) } catch {
                printError("poise: note: the embedded configuration is not used (no filters drawn, no throttle slices):\n\(error.description)")
            }
        }
        guard survey.count >= 32 else { throw CLIError("\(recording): \(survey.count) samples; a spectrum needs at least 32") }
        let present = axes.filter { survey.names.contains($0) }
        guard present.contains(where: { $0.hasPrefix("g") }) else {
            throw CLIError("\(recording): no gyroscope columns gx, gy, gz (columns: \(survey.names.joined(separator: ",")))")
        }
        // The filtered gyroscope, when recorded: shown with --signal filtered, and measured
        // against the raw one at the rotor lines either way.
        let filteredNames = ["gfx", "gfy", "gfz"]   // RecordingColumns.filteredGyroNames
        let hasFiltered = filteredNames.allSatisfy(survey.names.contains)
        if signal == .filtered && !hasFiltered {
            throw CLIError("\(recording): no filtered gyroscope columns \(filteredNames.joined(separator: ", ")) (a recording of a run with filter.gyro filters on has them)")
        }
        func filteredName(_ axis: String) -> String { "gf" + axis.dropFirst() }
        let source = present.map { signal == .filtered && $0.hasPrefix("g") ? filteredName($0) : $0 }
        let gyroAxes = present.filter { $0.hasPrefix("g") }
        let other = hasFiltered ? gyroAxes.map { signal == .filtered ? $0 : filteredName($0) } : []
        let sampleRate = survey.sampleRate
        guard sampleRate.isFinite, sampleRate > 0 else { throw CLIError("\(recording): the times in column t do not increase") }
        let motors = configuration.map { Self.motorColumns(names: survey.names, outputs: $0.outputs) } ?? []
        let estimator = WelchEstimator(sampleRate: sampleRate,
                                       segmentLength: WelchEstimator.segmentLength(sampleRate: sampleRate, resolution: resolution, sampleCount: survey.count))
        var accumulator = WelchAccumulator(estimator: estimator, gyroscope: present.map { $0.hasPrefix("g") })
        var compared = WelchAccumulator(estimator: estimator, gyroscope: other.map { _ in true })
        let feed = ProgressBar(total: survey.count, enabled: !quiet)
        try survey.rows(columns: source + other, motors: motors, progress: { feed.update($0) }) { values, throttle in
            if other.isEmpty {
                accumulator.append(values, throttle: throttle)
            } else {
                accumulator.append(Array(values[0..<source.count]), throttle: throttle)
                compared.append(Array(values[source.count...]))
            }
        }
        feed.finish()
        if Interruption.requested { return }
        let analysis = SpectrumAnalysis(
            accumulated: accumulator, channels: present.map { ($0, $0.hasPrefix("g") ? "rad/s" : "m/s²") },
            filters: configuration?.filter.gyro, filterRate: configuration.map { $0.loop.rateHz },
            peakRule: PeakFinder(threshold: threshold))
        let rotor = RotorLines.find(in: analysis, chipRate: configuration.map { $0.sensor.driver.outputRate })
        var attenuation: [MeasuredAttenuation]? = nil
        if !other.isEmpty, let rotor {
            let second = SpectrumAnalysis(accumulated: compared, channels: gyroAxes.map { ($0, "rad/s") })
            attenuation = signal == .filtered ? MeasuredAttenuation.at(rotor, raw: second, filtered: analysis)
                                              : MeasuredAttenuation.at(rotor, raw: analysis, filtered: second)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            var document = SpectrumJSON(analysis)
            document.rotor = rotor.map { RotorJSON($0) }
            // Only where there is a choice: a recording without the filtered gyroscope prints as before.
            if hasFiltered { document.signal = signal.rawValue }
            document.measuredAttenuation = attenuation
            let data = try encoder.encode(document)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Self.summary(analysis, recording: recording))
            if signal == .filtered { print("gyroscope: filtered (gfx, gfy, gfz: after filter.gyro), as the estimate and the loops got it") }
            print(Self.rotorSummary(rotor, analysis: analysis))
            if let attenuation { print(Self.attenuationSummary(attenuation)) }
        }
        if let path = output ?? (json ? nil : "psd.svg") {
            try writeTextFile(analysis.svg(title: traceName(recording)), to: path)
            if path != "-" { printError("poise: wrote the spectrum to \(path)") }
        }
    }

    /// The mean sample rate: samples per second between the first and the last (a chip
    /// clocked apart from the loop gives steps of 2 and 3 ms at 400 Hz; the mean is the rate).
    static func sampleRate(_ time: [Double]) -> Double {
        guard time.count >= 2, let first = time.first, let last = time.last, last > first else { return .nan }
        return Double(time.count - 1) / (last - first)
    }

    /// The channels driven by motor1…motor4 that the recording has an out_ column for: their
    /// pulse widths give the mean command (0…1) through each channel's input and pulse ranges.
    static func motorColumns(names: [String], outputs: PoiseConfiguration.Outputs) -> [MotorColumn] {
        outputs.channels.filter { ["motor1", "motor2", "motor3", "motor4"].contains($0.source) && $0.usesPulseRange }
            .compactMap { channel in
                guard let index = names.firstIndex(of: "out_" + channel.name) else { return nil }
                let (low, high) = channel.hasInputRange ? (channel.inputMin, channel.inputMax) : (0.0, 1.0)
                return MotorColumn(index: index, pulseMin: channel.pulseMinMicroseconds, pulseMax: channel.pulseMaxMicroseconds,
                                   inputMin: low, inputMax: high)
            }
    }

    /// What the terminal shows: the estimate's parameters, the peaks and the filters' lag.
    static func summary(_ a: SpectrumAnalysis, recording: String) -> String {
        var lines = ["\(recording): \(fmt(a.sampleRate, 1)) Hz, Welch with Hann windows of \(a.estimator.segmentLength) samples, "
            + "50 % overlap, \(a.segmentCount) segments, \(fmt(a.estimator.resolution, 2)) Hz bins"]
        lines.append("peaks (≥ \(fmt(a.peakRule.threshold, 1)) dB above the axis's median density):")
        if a.peaks.isEmpty { lines.append("  none") }
        for peak in a.peaks {
            lines.append("  \(fmt(peak.frequency, 1)) Hz  \(fmt(peak.decibels, 1)) dB  (+\(fmt(peak.prominence, 1)) dB)  \(peak.axes.joined(separator: ", "))")
        }
        if let throttle = a.throttle {
            let used = zip(throttle.throttles, throttle.counts).filter { $0.1 > 0 }.map(\.0)
            lines.append("throttle slices: mean motor command \(fmt(used.first ?? 0, 2))…\(fmt((used.last ?? 0) + 0.05, 2)) in \(used.count) bins")
        }
        if let filters = a.filters {
            lines.append("gyro filters (\(filters.sections.count) sections at \(fmt(filters.sampleRate, 1)) Hz, throttle notches at their reference):")
            for hz in GyroFilterResponse.reportFrequencies {
                let r = filters.at(hz)
                lines.append("  at \(fmt(hz, 0)) Hz: gain \(fmt(r.decibels, 2)) dB, phase \(fmt(r.degrees, 1))°, delay \(fmt(r.delay(at: hz) * 1000, 2)) ms")
            }
        } else {
            lines.append("gyro filters: none configured (filter.gyro)")
        }
        return lines.joined(separator: "\n")
    }

    /// The rotor's lines among the peaks and the notch to paste.
    static func rotorSummary(_ rotor: RotorLines?, analysis: SpectrumAnalysis) -> String {
        guard let rotor else { return "rotor lines: none (no gyroscope peak)" }
        let rates = rotor.foldingRates.map { fmt($0, 1) + " Hz" }.joined(separator: ", then ")
        var lines = ["rotor lines (one rotor frequency, its harmonics and their copies folded by sampling at \(rates)):"]
        func ordinal(_ n: Int) -> String { n == 1 ? "1st" : n == 2 ? "2nd" : n == 3 ? "3rd" : "\(n)th" }
        for line in rotor.lines {
            let at = "  \(fmt(line.peak.frequency, 1)) Hz  "
            switch line.role {
            case .harmonic(1, let f):
                lines.append(at + "fundamental" + (line.folded ? ", \(fmt(f, 1)) Hz folded" : ""))
            case .harmonic(let n, let f):
                lines.append(at + "\(ordinal(n)) harmonic" + (line.folded ? ", \(fmt(f, 1)) Hz folded" : ""))
            case .beside(let n):
                lines.append(at + "beside the \(n == 1 ? "fundamental" : ordinal(n) + " harmonic") (rotors at slightly different speeds)")
            case .other:
                lines.append(at + "not a line of this rotor frequency")
            }
        }
        let fs = fmt(analysis.sampleRate, 1)
        if rotor.harmonics == 1 {
            lines.append("  no harmonic found: the fundamental is the gyroscope peak that explains the most; check it against the heat map's motor line")
        }
        if rotor.decidedByThrottle {
            lines.append("  the fundamental \(fmt(rotor.fundamental, 1)) Hz is the unfolding the throttle slices follow")
        } else {
            lines.append("  the fundamental is taken below half the sample rate: f + k·\(fs) Hz and k·\(fs) Hz − f fold to the same lines, "
                + "and the throttle slices did not single one out (that needs the command to span 0.1 or more, and the line in every slice)")
        }
        if let reference = rotor.referenceThrottle {
            lines.append("  at the mean motor command \(fmt(reference, 2)) while the motors turned")
        }
        lines.append("proposed notch (docs/config.md, filter.gyro; merge into the config's filter section, in a free notch slot):")
        lines += rotor.proposal.configLines().map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The filters' effect at the rotor lines, measured on the recording.
    static func attenuationSummary(_ entries: [MeasuredAttenuation]) -> String {
        var lines = ["measured at the rotor lines, raw gyroscope against filtered (gfx…gfz, what the loops got):"]
        if entries.isEmpty { lines.append("  no rotor line to measure") }
        for e in entries {
            lines.append("  \(fmt(e.frequencyHz, 1)) Hz (\(e.harmonic == 1 ? "fundamental" : "harmonic \(e.harmonic)"))  \(e.axis): "
                + "raw \(fmt(e.rawDecibels, 1)) dB, filtered \(fmt(e.filteredDecibels, 1)) dB: \(fmt(e.attenuationDecibels, 1)) dB less")
        }
        return lines.joined(separator: "\n")
    }

    static func fmt(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
}

import PoisePlot

extension SpectrumAnalysis {
    /// The picture: the gyroscope's and the accelerometer's density (dB), the gyroscope after
    /// the configured filters dashed over it, the filters' gain, and the throttle heat map.
    public func svg(title: String) -> String {
        let f = frequencies
        var panels: [PlotPanel] = []
        let gyro = spectra.filter { $0.name.hasPrefix("g") }
        let accel = spectra.filter { $0.name.hasPrefix("a") }
        let peakText = peaks.prefix(4).map { "\(Self.format($0.frequency, 1)) Hz (\($0.axes.joined(separator: ",")))" }
            .joined(separator: ", ")
        if !gyro.isEmpty {
            var series = gyro.map { PlotSeries(name: $0.name, x: f, y: $0.density.map(decibels)) }
            let range = Self.decibelRange(series.flatMap(\.y))
            if let filters {
                // The axes' mean density after the filters: |H|² times the density, so + 20·log₁₀|H|
                // in dB; drawn down to the panel's floor (a low-pass's zero at Nyquist is −∞).
                let mean = (0..<f.count).map { k in gyro.map { $0.density[k] }.reduce(0, +) / Double(gyro.count) }
                let filtered = zip(f, mean).map { max(range.lowerBound, decibels($1) + filters.at($0).decibels) }
                series.append(PlotSeries(name: "gyro mean, filtered", x: f, y: filtered, style: .dashed, color: "#222222"))
            }
            panels.append(PlotPanel(title: "Gyroscope" + (peakText.isEmpty ? "" : " — peaks: " + peakText),
                                    yLabel: "PSD (dB re 1 (rad/s)²/Hz)", series: series, yRange: range))
        }
        if !accel.isEmpty {
            panels.append(PlotPanel(title: "Accelerometer", yLabel: "PSD (dB re 1 (m/s²)²/Hz)",
                                    series: accel.map { PlotSeries(name: $0.name, x: f, y: $0.density.map(decibels)) }))
        }
        if let filters {
            let delays = GyroFilterResponse.reportFrequencies.map { hz in
                let r = filters.at(hz)
                return "\(Self.format(-r.degrees, 1))° / \(Self.format(r.delay(at: hz) * 1000, 2)) ms lag at \(Self.format(hz, 0)) Hz"
            }.joined(separator: ", ")
            panels.append(PlotPanel(title: "Configured gyro filters (throttle notches at their reference): \(delays)",
                                    yLabel: "gain (dB)",
                                    series: [PlotSeries(name: "gain", x: f, y: f.map { max(-80, filters.at($0).decibels) }, color: "#222222")],
                                    yRange: -80...5, yTickStep: 20))
        }
        let info = "Welch, Hann, \(estimator.segmentLength)-point segments, 50 % overlap, \(Self.format(estimator.resolution, 2)) Hz bins, \(segmentCount) segments"
        let lines = SVGPlot(title: "\(title): power spectral density (\(info))", xLabel: "frequency (Hz)", panels: panels,
                            xRange: 0...(sampleRate / 2), width: 1100, panelHeight: 260).render()
        guard let throttle else { return lines }
        let map = SVGHeatMap(title: "Gyroscope PSD (gx+gy+gz) against motor command", xLabel: "frequency (Hz)",
                             yLabel: "mean motor command (0–1)", valueLabel: "PSD (dB re 1 (rad/s)²/Hz)",
                             x: f, yEdges: throttle.throttles + [1], values: throttle.decibels, width: 1100, height: 300)
        return SVGStack.vertical([lines, map.render()])
    }

    /// The panel's range for densities in dB: the finite values, 5 dB of room, whole tens.
    static func decibelRange(_ values: [Double]) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return -100...0 }
        return ((low - 5) / 10).rounded(.down) * 10...((high + 5) / 10).rounded(.up) * 10
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int((abs(value) * scale).rounded())
        let whole = n / Int(scale), fraction = n % Int(scale)
        var text = (value < 0 && n != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }
}

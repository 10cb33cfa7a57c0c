import PoiseConfig
import PoisePlot
import PoiseRun

/// The output panels of `poise simulate --plot`: servo and ESC pulses in µs of high time, and
/// H-bridge PWM (a channel mapped with duty_min/duty_max) as its duty cycle in percent, for
/// the same microseconds mean nothing without the period. GPIO levels are left out.
enum SimulationOutputPanels {
    static func panels(report: SimulationReport, channels outputs: PoiseConfiguration.Outputs) -> [PlotPanel] {
        var pulses: [PlotSeries] = [], duties: [PlotSeries] = []
        for (index, name) in report.channelNames.enumerated() {
            guard let channel = outputs.channels.first(where: { $0.name == name }), channel.kind != .gpio,
                  index < report.outputs.count else { continue }
            let highTime = report.outputs[index]
            if let periodMicroseconds = dutyPeriodMicroseconds(channel, outputs) {
                duties.append(PlotSeries(name: name, x: report.time, y: highTime.map { $0 / periodMicroseconds * 100 }))
            } else {
                pulses.append(PlotSeries(name: name, x: report.time, y: highTime))
            }
        }
        var panels: [PlotPanel] = []
        if !pulses.isEmpty { panels.append(PlotPanel(title: "pulses", yLabel: "high time (µs)", series: pulses)) }
        if !duties.isEmpty { panels.append(PlotPanel(title: "PWM duty", yLabel: "duty (%)", series: duties)) }
        return panels
    }

    /// The PWM period of a channel mapped by duty (duty_min/duty_max, an H-bridge), µs; nil for
    /// GPIO and for servo/ESC channels mapped by pulse_min_us/pulse_max_us.
    static func dutyPeriodMicroseconds(_ channel: PoiseConfiguration.Channel, _ outputs: PoiseConfiguration.Outputs) -> Double? {
        guard channel.kind != .gpio, !channel.usesPulseRange else { return nil }
        let period = channel.kind == .pwm ? Double(channel.periodMicroseconds) : 1_000_000 / outputs.pca9685.frequencyHz
        return period > 0 && period.isFinite ? period : nil
    }
}

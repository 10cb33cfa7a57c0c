import PoiseConfig
import PoiseLoop
import PoisePlot

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
            if channel.usesPulseRange {
                pulses.append(PlotSeries(name: name, x: report.time, y: highTime))
            } else {
                let periodMicroseconds = channel.kind == .pwm
                    ? Double(channel.periodMicroseconds) : 1_000_000 / outputs.pca9685.frequencyHz
                guard periodMicroseconds > 0, periodMicroseconds.isFinite else { continue }
                duties.append(PlotSeries(name: name, x: report.time, y: highTime.map { $0 / periodMicroseconds * 100 }))
            }
        }
        var panels: [PlotPanel] = []
        if !pulses.isEmpty { panels.append(PlotPanel(title: "pulses", yLabel: "high time (µs)", series: pulses)) }
        if !duties.isEmpty { panels.append(PlotPanel(title: "PWM duty", yLabel: "duty (%)", series: duties)) }
        return panels
    }
}

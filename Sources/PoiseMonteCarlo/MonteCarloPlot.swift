import PoisePlot

/// The outcomes as sorted curves (one point per trial, best to worst), which read like an
/// inverted cumulative distribution: where a curve turns up is where the spread starts to hurt.
/// A trial whose figure was not measured (diverged, never settled) has no point on its curve.
public enum MonteCarloPlot {
    public static func svg(_ report: MonteCarloReport, title: String) -> String {
        let outcomes = report.run.outcomes
        let n = max(outcomes.count, 1)
        func curve(_ values: [Double], name: String) -> PlotSeries {
            let sorted = values.sorted()
            let share = sorted.indices.map { 100 * Double($0 + 1) / Double(n) }
            return PlotSeries(name: name, x: share, y: sorted)
        }
        var panels = [
            PlotPanel(title: "worst true tilt from 2 s after arming, trials sorted", yLabel: "°",
                      series: [curve(outcomes.compactMap(\.worstTilt), name: "worst tilt")]),
            PlotPanel(title: "settling time (true pitch within 1° to the end), settled trials sorted", yLabel: "s",
                      series: [curve(outcomes.compactMap(\.settlingTime), name: "settling time")]),
            PlotPanel(title: "true pitch RMS after settling, settled trials sorted", yLabel: "°",
                      series: [curve(outcomes.compactMap(\.pitchRMS), name: "pitch RMS")]),
        ]
        if case .staysUp(let limit) = report.run.rule {
            panels[0].series.append(PlotSeries(name: "tilt limit", x: [0, 100], y: [limit, limit], style: .dashed, color: "black"))
        } else if case .holdsLevel(let limit) = report.run.rule {
            panels[0].series.append(PlotSeries(name: "3° bound", x: [0, 100], y: [limit, limit], style: .dashed, color: "black"))
        }
        return SVGPlot(title: title, xLabel: "share of trials (%)", panels: panels).render()
    }
}

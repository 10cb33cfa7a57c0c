import Foundation
import Testing
@testable import PoisePlot

/// Where text, legends and dashes land: nothing clipped, nothing covering data, no line hidden.
@Suite struct LayoutTests {
    /// The panel titles' lines (`<text x=… y=… font-weight="bold">`): x and body.
    func titleLines(_ svg: String) -> [(x: Double, body: String)] {
        let pattern = try! NSRegularExpression(pattern: "<text x=\"([-0-9.]+)\" y=\"[-0-9.]+\" font-weight=\"bold\">([^<]*)</text>")
        return pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
            let part = { (i: Int) in String(svg[Range(match.range(at: i), in: svg)!]) }
            return (Double(part(1)) ?? 0, part(2))
        }
    }

    /// The first rect with `marker` among its attributes: x and width.
    func rect(_ svg: String, marker: String) -> (x: Double, width: Double)? {
        let pattern = try! NSRegularExpression(pattern: "<rect x=\"([-0-9.]+)\" y=\"[-0-9.]+\" width=\"([-0-9.]+)\"[^>]*\(marker)")
        guard let match = pattern.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg)) else { return nil }
        let part = { (i: Int) in Double(svg[Range(match.range(at: i), in: svg)!])! }
        return (part(1), part(2))
    }

    let t = (0..<200).map { Double($0) / 10 }

    @Test func aLongPanelTitleIsWrappedInsideTheImage() {
        let note = "roll — pitch is near ±90° from t = 6.60 s: roll and yaw jump there by construction (gimbal lock), "
            + "not by filter error; plot tilt,heading or qw,qx,qy,qz instead"
        let plot = SVGPlot(title: "t", panels: [PlotPanel(title: note, series: [PlotSeries(name: "roll", x: t, y: t)])])
        let svg = plot.render()
        let titleLines = titleLines(svg)
        #expect(titleLines.count >= 2)
        for line in titleLines {
            #expect(line.x + Double(line.body.count) * SVGPlot.titleCharacterWidth <= Double(plot.width), "\(line.body)")
        }
        #expect(titleLines.map(\.body).joined(separator: " ") == note.replacingOccurrences(of: "&", with: "&amp;"))
    }

    @Test func legendsSitOutsideThePlotArea() {
        let svg = SVGPlot(title: "t", series: [PlotSeries(name: "esc1", x: t, y: t), PlotSeries(name: "esc2", x: t, y: t.map { -$0 })])
            .render()
        let frame = try! #require(rect(svg, marker: "stroke=\"#888\""))
        let legend = try! #require(rect(svg, marker: "stroke=\"#ccc\""))
        #expect(legend.x >= frame.x + frame.width)
        #expect(legend.x + legend.width <= 960)
    }

    @Test func aLineOnTopOfAnotherIsDashedAndOthersAreNot() {
        let left = t.map { $0 < 10 ? 0 : 5 + $0 }
        var right = left
        for i in 150..<200 { right[i] += 3 }  // the same for three quarters of the run
        let svg = SVGPlot(title: "t", panels: [
            PlotPanel(series: [PlotSeries(name: "left_pwm", x: t, y: left), PlotSeries(name: "right_pwm", x: t, y: right)]),
            PlotPanel(series: [PlotSeries(name: "gx", x: t, y: t), PlotSeries(name: "gy", x: t, y: t.map { 20 - $0 })]),
        ]).render()
        let panels = svg.components(separatedBy: "<clipPath")
        #expect(panels.count == 3)
        // The second wheel's line and its legend sample are dashed; the first's are not.
        #expect(panels[1].components(separatedBy: "stroke-dasharray").count - 1 == 2)
        #expect(panels[2].contains("stroke-dasharray") == false)
    }

    @Test func wrapBreaksAtSpacesAndKeepsLongWords() {
        #expect(SVGPlot.wrap("a bb ccc dddd", maxCharacters: 6) == ["a bb", "ccc", "dddd"])
        #expect(SVGPlot.wrap("abcdefghij k", maxCharacters: 4) == ["abcdefghij", "k"])
        #expect(SVGPlot.wrap("", maxCharacters: 4) == [])
    }
}

import Testing
@testable import PoisePlot
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses with XMLParser; returns the parse error, element names, and the `d` of every path.
final class XMLCheck: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var paths: [String] = []
    var texts: [String] = []
    var error: Error?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(name)
        if name == "path", let d = attributes["d"], attributes["stroke-width"] != "1" { paths.append(d) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
}

/// Whether Swift's spellings of NaN or infinity leaked into the SVG.
func hasNonFiniteNumber(_ svg: String) -> Bool {
    let cleaned = svg.replacingOccurrences(of: "dominant", with: "")
    return cleaned.contains("nan") || cleaned.contains("inf")
}

/// Data paths (not grid, not legend samples) are those with more than one M/L command or h0.
func subpathCount(_ d: String) -> Int { d.filter { $0 == "M" }.count }

@Suite struct SVGPlotTests {
    let t = (0..<1000).map { Double($0) / 100 }

    @Test func producesWellFormedXMLWithEscapedText() throws {
        let plot = SVGPlot(
            title: "a < b & \"c\" 'd' > e", xLabel: "time (s) <x>", yLabel: "µT & co",
            series: [
                PlotSeries(name: "sin & <cos>", x: t, y: t.map { $0 * $0 }),
                .truth(x: t, y: t.map { -$0 }),
            ])
        let svg = plot.render()
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let check = XMLCheck(svg)
        #expect(check.error == nil, "\(String(describing: check.error))")
        #expect(check.elements.first == "svg")
        let text = check.texts.joined()
        #expect(text.contains("a < b & \"c\" 'd' > e"))
        #expect(text.contains("sin & <cos>"))
        #expect(svg.contains("stroke-dasharray"))
    }

    @Test func stackedPanelsRenderEachPanel() throws {
        let panels = ["roll", "pitch", "yaw"].map { name in
            PlotPanel.comparison(
                title: name, yLabel: "°", x: t, estimate: t.map { $0 * 30 - 150 }, truth: t.map { $0 * 31 - 150 },
                wrapPeriod: 360)
        }
        let svg = SVGPlot(title: "attitude", xLabel: "time (s)", panels: panels).render()
        let check = XMLCheck(svg)
        #expect(check.error == nil)
        for name in ["roll", "pitch", "yaw", "180", "-90"] { #expect(check.texts.contains(name), "\(name)") }
        #expect(check.elements.filter { $0 == "clipPath" }.count == 3)
    }

    @Test func nanLeavesAGap() throws {
        var y = t.map { $0 }
        for i in 300..<350 { y[i] = .nan }
        y[600] = .infinity
        let svg = SVGPlot(title: "gaps", series: [PlotSeries(name: "", x: t, y: y, color: "#123456")]).render()
        let path = try #require(svg.split(separator: "\n").first { $0.contains("#123456") })
        #expect(subpathCount(String(path)) == 3)
        #expect(!hasNonFiniteNumber(svg))
    }

    @Test func angleWrapBreaksInsteadOfDrawingAVerticalStroke() throws {
        // A yaw ramp that wraps from +180 to −180 three times.
        let yaw = t.map { v -> Double in
            let a = (v * 100).truncatingRemainder(dividingBy: 360)
            return a > 180 ? a - 360 : a
        }
        let wrapped = SVGPlot(title: "yaw", series: [PlotSeries(name: "", x: t, y: yaw, color: "#abcdef")], wrapPeriod: 360)
            .render()
        let path = try #require(wrapped.split(separator: "\n").first { $0.contains("#abcdef") })
        #expect(subpathCount(String(path)) == 4)  // wraps at 180°, 540°, 900°
        let unwrapped = SVGPlot(title: "yaw", series: [PlotSeries(name: "", x: t, y: yaw, color: "#abcdef")]).render()
        let line = try #require(unwrapped.split(separator: "\n").first { $0.contains("#abcdef") })
        #expect(subpathCount(String(line)) == 1)
    }

    @Test func longSeriesAreDownsampledButKeepSpikes() throws {
        let n = 200_000
        let x = (0..<n).map { Double($0) / 1000 }
        var y = (0..<n).map { i in Double(i % 97) / 97 - 0.5 }
        y[123_457] = 50  // a single-sample spike must survive
        let svg = SVGPlot(title: "long", xLabel: "t", yLabel: "v", series: [
            PlotSeries(name: "a", x: x, y: y), PlotSeries(name: "b", x: x, y: y.map { -$0 }),
            PlotSeries(name: "c", x: x, y: y.map { $0 * 2 }),
        ]).render()
        #expect(svg.utf8.count < 200_000, "\(svg.utf8.count) bytes")
        let check = XMLCheck(svg)
        #expect(check.error == nil)
        var builder = PolylineBuilder(
            toPixelX: { $0 }, toPixelY: { -$0 }, wrapPeriod: nil, clampY: -1e6...1e6)
        _ = builder.build(x: x.map { $0 * 4 }, y: y)  // ~800 pixel columns
        #expect(builder.pointCount <= 4 * 801)
        #expect(builder.path.contains(" -50"))  // the spike (y = 50 → pixel −50) survived
    }

    @Test func emptyAndDegenerateInputStillRender() {
        for plot in [
            SVGPlot(title: "", panels: []),
            SVGPlot(title: "empty", series: []),
            SVGPlot(title: "one point", series: [PlotSeries(name: "p", x: [1], y: [2])]),
            SVGPlot(title: "all missing", series: [PlotSeries(name: "p", x: [1, 2], y: [.nan, .nan])]),
            SVGPlot(title: "mismatched", series: [PlotSeries(name: "p", x: [1, 2, 3], y: [1])]),
            SVGPlot(title: "huge", series: [PlotSeries(name: "p", x: [0, 1], y: [-1e308, 1e308])]),
            SVGPlot(title: "tiny", width: 1, height: 1),
        ] {
            let svg = plot.render()
            let check = XMLCheck(svg)
            #expect(check.error == nil, "\(plot.title)")
            #expect(!hasNonFiniteNumber(svg), "\(plot.title)")
        }
    }
}

extension SVGPlot {
    fileprivate init(title: String, width: Int, height: Int) {
        self.init(title: title, series: [PlotSeries(name: "x", x: [0, 1], y: [0, 1])], width: width, height: height)
    }
}

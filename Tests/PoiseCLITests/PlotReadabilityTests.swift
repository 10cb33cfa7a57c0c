import Foundation
import Testing

/// What `poise plot`, `simulate --plot` and `eval --plot` draw and say, read as a person would:
/// angles in one frame, units on every axis, notes that fit, outputs in the units they mean.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct PlotReadabilityTests {
    /// The data lines of each panel of a `poise plot` SVG, by stroke colour, as pixel points.
    static func panelLines(_ svg: String) -> [[String: [(x: Double, y: Double)]]] {
        svg.components(separatedBy: "<g clip-path=").dropFirst().map { panel in
            let body = panel.components(separatedBy: "</g>")[0]
            var lines: [String: [(x: Double, y: Double)]] = [:]
            let path = try! NSRegularExpression(pattern: "<path d=\"([^\"]+)\" stroke=\"([^\"]+)\"")
            for match in path.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                let d = String(body[Range(match.range(at: 1), in: body)!])
                let colour = String(body[Range(match.range(at: 2), in: body)!])
                let numbers = d.replacingOccurrences(of: "h0", with: " ").replacingOccurrences(of: "M", with: " ")
                    .replacingOccurrences(of: "L", with: " ").split(separator: " ").compactMap { Double($0) }
                lines[colour, default: []] += stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
            }
            return lines
        }
    }

    /// The share of the estimate's points whose truth point at the same pixel column lies within
    /// `pixels` (across the ±180° wrap of a 240-pixel panel).
    static func agreement(_ lines: [String: [(x: Double, y: Double)]], pixels: Double) -> Double {
        let estimate = lines["#1f77b4"] ?? [], truth = lines["#222222"] ?? []
        var truthAt: [Int: [Double]] = [:]
        for point in truth { truthAt[Int(point.x.rounded()), default: []].append(point.y) }
        var compared = 0, close = 0
        for point in estimate {
            guard let ys = truthAt[Int(point.x.rounded())] else { continue }
            compared += 1
            if ys.contains(where: { let d = abs($0 - point.y); return min(d, 240 - d) <= pixels }) { close += 1 }
        }
        return compared == 0 ? 0 : Double(close) / Double(compared)
    }

    @Test func truthIsDrawnInTheEstimatesFrame() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "50", "-o", trace]).status == 0)
        for frame in ["enu", "ned", "nwu", "xMagneticNorthZVertical", "xArbitraryZVertical"] {
            let estimate = directory.appending(path: "est-\(frame).csv").path
            #expect(try poise(["replay", trace, "--frame", frame, "--quiet", "-o", estimate]).status == 0)
            let run = try poise(["plot", estimate, "--truth", trace, "-o", "-"])
            #expect(run.status == 0, "\(run.error)")
            let panels = Self.panelLines(run.text)
            #expect(panels.count == 3)
            for (name, lines) in zip(["roll", "pitch", "yaw"], panels) {
                // Within 6 px (9°) nearly everywhere: the filter converges, and roll and yaw jump
                // apart only briefly, at the gimbal lock.
                let share = Self.agreement(lines, pixels: 6)
                #expect(share > 0.85, "\(frame) \(name): \(share)")
            }
        }
    }

    @Test func truthThatCannotBeConvertedIsRefusedNamingBothFrames() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "20", "-o", trace]).status == 0)
        let trueNorth = directory.appending(path: "tn.csv").path, ned = directory.appending(path: "ned.csv").path
        #expect(try poise(["replay", trace, "--frame", "xTrueNorthZVertical", "--declination", "3", "--quiet", "-o", trueNorth]).status == 0)
        #expect(try poise(["replay", trace, "--frame", "ned", "--quiet", "-o", ned]).status == 0)
        let refused = try poise(["plot", trueNorth, "--truth", trace, "-o", "-"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("enu") && refused.error.contains("xTrueNorthZVertical"), "\(refused.error)")
        let mixed = try poise(["plot", trueNorth, ned, "-o", "-"])
        #expect(mixed.status == 1)
        #expect(mixed.error.contains("frame xTrueNorthZVertical") && mixed.error.contains("in ned"), "\(mixed.error)")
    }

    @Test func headingIsWrappedToAFullTurnWithItsUnitAndSensorColumnsHaveUnits() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "50", "-o", trace]).status == 0)
        let estimate = directory.appending(path: "est.csv").path
        #expect(try poise(["replay", trace, "--columns", "heading", "--quiet", "-o", estimate]).status == 0)
        let heading = try poise(["plot", estimate, "--columns", "heading", "-o", "-"])
        #expect(heading.status == 0)
        #expect(heading.text.contains("heading (°"))
        for tick in [0, 90, 180, 270, 360] { #expect(heading.text.contains(">\(tick)</text>")) }
        #expect(!heading.text.contains(">400</text>") && !heading.text.contains(">-90</text>"))
        let raw = try poise(["plot", trace, "--columns", "ax,gx,mx", "-o", "-"])
        #expect(raw.status == 0)
        for label in ["ax (m/s²)", "gx (rad/s)", "mx (µT)"] { #expect(raw.text.contains(label), "\(label)") }
    }

    @Test func plotAndEvalSayWhatTheyWrote() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "20", "-o", trace]).status == 0)
        let svg = directory.appending(path: "p.svg").path
        let plot = try poise(["plot", trace, "-o", svg])
        #expect(plot.status == 0)
        #expect(plot.error.contains("wrote") && plot.error.contains(svg), "\(plot.error)")
        let eval = try poise(["eval", trace, "--plot", svg])
        #expect(eval.status == 0)
        #expect(eval.error.contains("wrote") && eval.error.contains(svg), "\(eval.error)")
        #expect(!eval.text.contains("wrote"))  // the table on standard output stays clean
    }

    @Test func simulatePlotsHBridgeDutyInPercentAndPulsesInMicroseconds() throws {
        let directory = try temporaryDirectory()
        let robot = directory.appending(path: "robot.svg").path, quad = directory.appending(path: "quad.svg").path
        #expect(try poise(["simulate", "--duration", "2", "--quiet", "--plot", robot]).status == 0)
        let robotSVG = try String(contentsOfFile: robot, encoding: .utf8)
        #expect(robotSVG.contains("duty (%)") && !robotSVG.contains("µs"))
        let config = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        #expect(try poise(["simulate", "--config", config, "--duration", "2", "--quiet", "--plot", quad]).status == 0)
        let quadSVG = try String(contentsOfFile: quad, encoding: .utf8)
        #expect(quadSVG.contains("high time (µs)") && !quadSVG.contains("duty (%)"))
    }

    @Test func simulateNotesTheGimbalLockWhenPitchNearsNinetyDegrees() throws {
        let directory = try temporaryDirectory()
        let robot = try String(contentsOfFile: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path, encoding: .utf8)
        #expect(robot.contains("initial_tilt_deg: 10"))
        let config = directory.appending(path: "lying.yaml").path
        try robot.replacingOccurrences(of: "initial_tilt_deg: 10", with: "initial_tilt_deg: 88")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let svg = directory.appending(path: "lying.svg").path
        let run = try poise(["simulate", "--config", config, "--duration", "1", "--quiet", "--plot", svg])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("gimbal lock"))
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("gimbal lock"))
        let upright = directory.appending(path: "upright.svg").path
        #expect(try poise(["simulate", "--duration", "1", "--quiet", "--plot", upright]).error.contains("gimbal") == false)
    }

    @Test func aRecordingsOutputsAreDrawnInTheirChannelsUnitsGivenItsConfig() throws {
        let directory = try temporaryDirectory()
        let config = repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path
        let recording = directory.appending(path: "sim.csv").path
        #expect(try poise(["simulate", "--config", config, "--duration", "1", "--quiet", "--record", recording]).status == 0)
        let columns = ["--columns", "out_left_pwm,out_left_in1"]
        let known = try poise(["plot", recording] + columns + ["--config", config, "-o", "-"])
        #expect(known.status == 0, "\(known.error)")
        #expect(known.text.contains("out_left_pwm (duty %)") && known.text.contains("out_left_in1 (level)"))
        // Without --config, the configuration embedded in the recording gives the same units.
        let embedded = try poise(["plot", recording] + columns + ["-o", "-"])
        #expect(embedded.text.contains("out_left_pwm (duty %)") && embedded.text.contains("out_left_in1 (level)"))
    }
}

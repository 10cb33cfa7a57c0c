import Foundation
import PoiseConfig
import PoiseMonteCarlo
import PoiseRun
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let builtIn = try! PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
let quad = try! PoiseConfiguration.load(path: repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path)

/// The problems a spread text yields, as printed.
func problems(_ text: String, configuration: PoiseConfiguration = builtIn) -> [String] {
    do {
        _ = try SpreadParser.parse(text: text, file: "s.yaml", configuration: configuration)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

@Suite struct SpreadParserTests {
    @Test func readsEachDistributionInFileOrder() throws {
        let spread = try SpreadParser.parse(text: """
            simulation.initial_tilt_deg: {uniform: [-5, 5]}
            controller.balance.pitch.kp: {relative: 0.2}
            simulation.gust_torque: {normal: {mean: 0.01, sd: 0.002}}
            simulation.gust_time: 3
            sensor.calibration.accelerometer_offset: {magnitude: {uniform: [0, 0.1]}}
            """, file: "s.yaml", configuration: builtIn)
        #expect(spread.entries.map(\.path) == ["simulation.initial_tilt_deg", "controller.balance.pitch.kp", "simulation.gust_torque",
                                               "simulation.gust_time", "sensor.calibration.accelerometer_offset"])
        #expect(spread.entries[0].form == .scalar(.uniform(-5, 5)))
        #expect(spread.entries[1].form == .scalar(.relative(0.2)))
        #expect(spread.entries[2].form == .scalar(.normal(mean: 0.01, sd: 0.002)))
        #expect(spread.entries[3].form == .scalar(.fixed(3)))
        #expect(spread.entries[4].form == .magnitude(.uniform(0, 0.1)))
        #expect(spread.entries[1].line == 2 && spread.entries[1].column == 1)
    }

    @Test func everyProblemHasItsLineAndColumn() {
        let found = problems("""
            simulation.initial_tilt_degs: {uniform: [-5, 5]}
            simulation.initial_tilt_deg: {uniform: [-100, 5]}
            simulation.gust_torque: {triangular: [0, 1]}
            simulation.seed: {uniform: [0, 9]}
            filter.name: {uniform: [0, 1]}
            simulation.gust_time: {uniform: [5, 1]}
            simulation.gust_duration: {relative: -1}
            simulation.switch_on_s: {normal: {mean: 1}}
            """)
        #expect(found == [
            "s.yaml:1:1: simulation.initial_tilt_degs: not a configuration key; did you mean `simulation.initial_tilt_deg`?",
            "s.yaml:2:30: simulation.initial_tilt_deg: draws -100.0…5.0, outside the key's range (allowed: -90…90 °)",
            "s.yaml:3:26: simulation.gust_torque: unknown distribution `triangular` (allowed: a number, {relative: f}, {uniform: [a, b]} or {normal: {mean: m, sd: s}})",
            "s.yaml:4:1: simulation.seed: each trial's seed is derived from --seed and the trial number; leave it out of the spread",
            "s.yaml:5:1: filter.name: takes one of the listed words, not a number: only number, integer and vector keys are drawn",
            "s.yaml:6:33: simulation.gust_time: uniform: the low bound 5.0 is above the high bound 1.0",
            "s.yaml:7:38: simulation.gust_duration: relative: a fraction ≥ 0 (0.3 is ± 30 %)",
            "s.yaml:8:34: simulation.switch_on_s: normal: expected {mean: m, sd: s}",
        ])
    }

    @Test func syntaxErrorsAndNonMappingsArePositioned() {
        #expect(problems("simulation.gust_time: {uniform: [1, 2]\n")[0].hasPrefix("s.yaml:2:1: YAML syntax error"))
        #expect(problems("- 1\n- 2\n") == ["s.yaml:1:1: expected a mapping of configuration keys to distributions"])
        #expect(problems("simulation.gust_time: {uniform: [1, x]}\n") == ["s.yaml:1:37: simulation.gust_time: expected a number, got `x`"])
        #expect(problems("") == [])
    }

    @Test func relativeToZeroIsRefused() {
        // The built-in robot has no gust: ± 30 % of 0 would vary nothing, silently.
        #expect(problems("simulation.gust_torque: {relative: 0.3}\n")
            == ["s.yaml:1:36: simulation.gust_torque: relative to the configuration's value 0 always draws 0; use {uniform: [a, b]}"])
    }

    @Test func theBuiltInSpreadsLoadAgainstTheShippedConfigurations() throws {
        for (configuration, expected) in [(builtIn, DefaultSpread.balancingRobot(builtIn)), (quad, DefaultSpread.quadrotor(quad))] {
            let (name, text) = DefaultSpread.text(for: configuration)
            #expect(text == expected)
            let spread = try SpreadParser.parse(text: text, file: name, configuration: configuration)
            #expect(!spread.entries.isEmpty)
        }
    }
}

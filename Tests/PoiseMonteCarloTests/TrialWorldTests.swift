import PoiseConfig
import PoiseLoop
import PoiseMonteCarlo
import PoiseRun
import Testing

@Suite struct TrialWorldTests {
    let spread = try! SpreadParser.parse(text: """
        simulation.initial_tilt_deg: {uniform: [-5, 5]}
        controller.balance.pitch.kp: {relative: 0.2}
        safety.max_tilt_deg: {normal: {mean: 175, sd: 10}}
        sensor.calibration.accelerometer_offset: {magnitude: {uniform: [0.05, 0.1]}}
        """, file: "s.yaml", configuration: builtIn)

    @Test func drawsWithinEachDistributionAndSetsTheTrialSeed() throws {
        let kp = builtIn.values.number("controller.balance.pitch.kp")
        for trial in 0..<50 {
            let world = try TrialWorld(trial: trial, baseSeed: 7, spread: spread, base: builtIn)
            let values = world.configuration.values
            #expect(abs(values.number("simulation.initial_tilt_deg")) <= 5)
            #expect(abs(values.number("controller.balance.pitch.kp") - kp) <= 0.2 * kp + 1e-12)
            // Truncated to the key's range (0…180 °).
            #expect((0...180).contains(values.number("safety.max_tilt_deg")))
            let offset = values.vector3("sensor.calibration.accelerometer_offset")
            #expect((0.05 - 1e-12...0.1 + 1e-12).contains((offset * offset).sum().squareRoot()))
            #expect(values.integer("simulation.seed") == world.seed)
            #expect(world.seed == TrialWorld.seed(base: 7, trial: trial))
            // Everything else is the user's configuration.
            #expect(values.string("filter.name") == builtIn.values.string("filter.name"))
        }
    }

    @Test func aTrialIsTheSameWorldWhateverElseRuns() throws {
        let a = try TrialWorld(trial: 17, baseSeed: 3, spread: spread, base: builtIn)
        let b = try TrialWorld(trial: 17, baseSeed: 3, spread: spread, base: builtIn)
        #expect(a.drawn == b.drawn && a.seed == b.seed)
        let other = try TrialWorld(trial: 17, baseSeed: 4, spread: spread, base: builtIn)
        #expect(other.seed != a.seed)
        let seeds = Set((0..<1000).map { TrialWorld.seed(base: 3, trial: $0) })
        #expect(seeds.count == 1000)
        #expect(seeds.allSatisfy { (0...Int(Int32.max)).contains($0) })
    }

    @Test func theOutcomesDoNotDependOnTheNumberOfThreads() throws {
        var plan = MonteCarloPlan(configuration: builtIn, configPath: nil, spread: spread, baseSeed: 1, trials: Array(0..<4),
                                  duration: 2.5, jobs: 1)
        let one = try MonteCarloRunner.run(plan, signals: StopSignals())
        plan.jobs = 2
        let two = try MonteCarloRunner.run(plan, signals: StopSignals())
        #expect(one.outcomes.map(\.trial) == [0, 1, 2, 3])
        #expect(one.outcomes == two.outcomes)
        let report = { (run: MonteCarloRun) in MonteCarloReport(plan: plan, run: run, commandPrefix: ["poise", "simulate"]) }
        #expect(report(one).json == report(two).json)
        #expect(report(one).text == report(two).text)
    }
}

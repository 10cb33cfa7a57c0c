import PoiseConfig
import PoiseLoop
import PoiseMonteCarlo
import PoiseRun
import PoiseSimulation
import Testing

/// Outcomes report only what was measured: a diverged trial is a failure with no figures, a
/// never-settled one has no RMS, and the worst trials come diverged first.
@Suite struct HonestOutcomeTests {
    func run(_ spreadText: String, trials: Int, duration: Double) throws -> (MonteCarloPlan, MonteCarloRun) {
        let spread = try SpreadParser.parse(text: spreadText, file: "s.yaml", configuration: builtIn)
        let plan = MonteCarloPlan(configuration: builtIn, configPath: nil, spread: spread, baseSeed: 1,
                                  trials: Array(0..<trials), duration: duration, jobs: 2)
        return (plan, try MonteCarloRunner.run(plan, signals: StopSignals()))
    }

    @Test func aDivergedTrialIsAFailureWithNoFigures() throws {
        // A 1000:1 gear motor's output-shaft figures entered as the bare motor's: too stiff to integrate.
        let (plan, run) = try run("""
            simulation.balancing_robot.gear_ratio: 1000
            simulation.balancing_robot.motor_stall_torque_nm: 0.8
            simulation.balancing_robot.motor_no_load_speed_rad_s: 10
            """, trials: 2, duration: 4)
        for outcome in run.outcomes {
            let divergence = try #require(outcome.divergence)
            #expect(divergence.time >= outcome.armedAt ?? 0)
            #expect(divergence.cause.hasPrefix("too stiff to integrate"))
            #expect(!outcome.success && !outcome.marginal)
            #expect(outcome.worstTilt == nil && outcome.pitchRMS == nil && outcome.settlingTime == nil && outcome.saturation == nil)
        }
        let report = MonteCarloReport(plan: plan, run: run, commandPrefix: ["poise", "simulate"])
        #expect(report.text.contains("\nsuccess: 0/2 "))
        #expect(report.text.contains("\ndiverged: 2/2 — "))
        #expect(report.text.contains("worst tilt (°, true |pitch| or |roll| from 2 s after arming): —\n"))
        #expect(!report.text.lowercased().contains("nan"))
        #expect(report.json.contains("\"diverged\": 2,"))
        #expect(report.json.contains("\"worst_tilt_deg\": null,"))
    }

    @Test func aNeverSettledTrialHasNoRMS() throws {
        // 0.2 s after arming from 9–10°: not yet within 1°, and not 2 s after arming either.
        let (plan, run) = try run("simulation.initial_tilt_deg: {uniform: [9, 10]}", trials: 2, duration: 3.8)
        for outcome in run.outcomes {
            #expect(outcome.success && outcome.divergence == nil)
            #expect(outcome.settlingTime == nil && outcome.pitchRMS == nil && outcome.worstTilt == nil)
            #expect(outcome.saturation != nil)
        }
        let report = MonteCarloReport(plan: plan, run: run, commandPrefix: ["poise", "simulate"])
        for outcome in run.outcomes {
            #expect(report.trialLines(outcome)[0].contains("  held  settled never  worst tilt —  pitch RMS —  at a limit "))
        }
        #expect(report.json.contains("\"never_settled\": 2,"))
        #expect(!report.json.contains("\"pitch_rms_deg\": 0.0000"))
    }

    @Test func theWorstComeDivergedThenFailedThenMarginal() throws {
        let (_, run) = try run("simulation.initial_tilt_deg: {uniform: [-5, 5]}", trials: 1, duration: 2.5)
        let base = try #require(run.outcomes.first)
        var diverged = base, failed = base, marginal = base, held = base
        diverged.trial = 1; diverged.success = false
        diverged.divergence = .init(time: 3, cause: "non-finite lean"); diverged.worstTilt = nil
        failed.trial = 2; failed.success = false; failed.worstTilt = 80
        marginal.trial = 3; marginal.success = true; marginal.marginal = true; marginal.worstTilt = 0.1
        held.trial = 4; held.success = true; held.marginal = false; held.worstTilt = 0.5
        let sorted = [held, marginal, failed, diverged].sorted(by: TrialOutcome.worseThan)
        #expect(sorted.map(\.trial) == [1, 2, 3, 4])
    }
}

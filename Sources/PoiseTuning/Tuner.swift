import Foundation
import PoiseConfig
import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseRun
import PoiseSimulation

/// Why `poise tune` stopped without gains.
public struct TuningError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// SIGINT or SIGTERM when a signal stopped the tuning, else 0.
    public var signal: Int32 = 0
    public init(_ description: String) { self.description = description }

    init(interruptedBy signal: Int32) {
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        self.init("interrupted by \(name); the loop stopped with every output safe and no gains were found")
        self.signal = signal == 0 ? SIGINT : signal
    }
}

/// `poise tune`: the relay experiment on the rig the configuration describes, the model and
/// gains per loop, and the step with the starting and the tuned gains.
public enum Tuner {
    /// Four significant digits: what the report prints and `--save` writes, and what the
    /// verification runs.
    static func rounded(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return x }
        let digits = 4 - Int(floor(log10(abs(x)))) - 1
        let scale = pow(10, Double(digits))
        return (x * scale).rounded() / scale
    }

    /// The configuration with these values set (checked as a loaded file would be).
    public static func configuration(_ configuration: PoiseConfiguration, setting values: [String: Double]) -> PoiseConfiguration {
        var table = configuration.values
        for (path, value) in values { table[path] = .number(value) }
        return PoiseConfiguration(values: table)
    }

    /// `signals` stops it (see ``TuningRig/signals``); its watcher is the caller's to start.
    public static func tune(_ configuration: PoiseConfiguration, options: TuningOptions = TuningOptions(),
                            checkStartingGains: Bool = true, signals: StopSignals = StopSignals()) throws(TuningError) -> TuningReport {
        let simulated = configuration.board.kind == .sim
        switch configuration.controller.kind {
        case .quadX, .quadPlus:
            return simulated
                ? try tuneQuadrotor(configuration, on: SimulatedQuadrotorRig(signals: signals), options: options, checkStartingGains: checkStartingGains)
                : try tuneQuadrotor(configuration, on: RealRig(signals: signals), options: options, checkStartingGains: checkStartingGains)
        case .balance:
            return simulated
                ? try tuneBalancingRobot(configuration, on: SimulatedBalancingRobotRig(signals: signals), options: options, checkStartingGains: checkStartingGains)
                : try tuneBalancingRobot(configuration, on: RealRig(signals: signals), options: options, checkStartingGains: checkStartingGains)
        case .none: throw TuningError("controller.kind: none: there is no loop to tune")
        }
    }

    /// Seconds a run may take before the tool gives up waiting for it (arming included).
    static let runLimit = 60.0

    static func tuneQuadrotor<Rig: TuningRig>(_ configuration: PoiseConfiguration, on rig: Rig, options: TuningOptions,
                                              checkStartingGains: Bool) throws(TuningError) -> TuningReport {
        let rate = configuration.loop.rateHz
        var experiment = QuadExperiment(configured: configuration.controller.quad.settings, options: options, rateHz: rate,
                                        maxTilt: configuration.safety.supervisor.maxTilt)
        var total = try rig.drive(configuration, limit: runLimit) { experiment.observe(&$0, $1) }
        if let failure = experiment.failure { throw TuningError(failure) }
        guard case .done = experiment.phase else { throw TuningError("the quadrotor never armed in \(Int(runLimit)) s") }
        let tuned = Self.configuration(configuration, setting: experiment.values)
        var before: [StepCheck] = []
        if checkStartingGains { before = try quadSteps(configuration, on: rig, options: options, total: &total) }
        let after = try quadSteps(tuned, on: rig, options: options, total: &total)
        return TuningReport(rig: "quadrotor", simulated: rig.simulated, rule: TuningRule.name, loops: experiment.loops,
                            values: experiment.values, experimentSeconds: experiment.experimentSeconds, totalSeconds: total,
                            before: before, after: after)
    }

    static func quadSteps<Rig: TuningRig>(_ configuration: PoiseConfiguration, on rig: Rig, options: TuningOptions,
                                          total: inout Double) throws(TuningError) -> [StepCheck] {
        var run = StepRun(rig: .quadrotor(throttle: configuration.controller.quad.throttle), options: options,
                          rateHz: configuration.loop.rateHz, useTruth: rig.simulated)
        total += try rig.drive(configuration, limit: runLimit) { run.observe(&$0, $1) }
        if run.armedAt == nil { return [StepCheck(axis: "pitch", response: nil, problem: "never armed")] }
        return run.checks
    }

    static func tuneBalancingRobot<Rig: TuningRig>(_ configuration: PoiseConfiguration, on rig: Rig, options: TuningOptions,
                                                   checkStartingGains: Bool) throws(TuningError) -> TuningReport {
        let rate = configuration.loop.rateHz
        var experiment = BalanceExperiment(configured: configuration.controller.balance, options: options, rateHz: rate,
                                           maxTilt: configuration.safety.supervisor.maxTilt)
        // The robot's figures (simulation.balancing_robot, which a real robot's file describes too).
        experiment.motorPole = BalancingRobotPlant.forwardDampingRate(configuration.simulation.balancingRobot)
        experiment.fallRate = (9.81 / max(0.005, Double(configuration.simulation.balancingRobot.centreOfMassHeight))).squareRoot()
        // The experiment starts upright (as a hand holds a real robot); the check releases it tilted.
        var upright = configuration.values
        upright["simulation.initial_tilt_deg"] = .number(0)
        var total = try rig.drive(PoiseConfiguration(values: upright), limit: runLimit) { experiment.observe(&$0, $1) }
        if let failure = experiment.failure { throw TuningError(failure) }
        guard case .done = experiment.phase else { throw TuningError("the balancing robot never armed in \(Int(runLimit)) s") }
        let tuned = Self.configuration(configuration, setting: experiment.values)
        var before: [StepCheck] = [], after: [StepCheck] = []
        // A real robot cannot be released at a tilt by the program: its check is the prediction.
        if rig.simulated {
            if checkStartingGains { before = try robotRelease(configuration, on: rig, options: options, total: &total) }
            after = try robotRelease(tuned, on: rig, options: options, total: &total)
        }
        return TuningReport(rig: "balancing_robot", simulated: rig.simulated, rule: TuningRule.name, loops: experiment.loops,
                            values: experiment.values, experimentSeconds: experiment.experimentSeconds, totalSeconds: total,
                            before: before, after: after)
    }

    /// The robot released at `options.stepDegrees` of tilt when it arms.
    static func robotRelease<Rig: TuningRig>(_ configuration: PoiseConfiguration, on rig: Rig, options: TuningOptions,
                                             total: inout Double) throws(TuningError) -> [StepCheck] {
        var values = configuration.values
        values["simulation.initial_tilt_deg"] = .number(options.stepDegrees)
        let target = Double(configuration.controller.balance.pitchSetpoint) * 180 / .pi
        var run = StepRun(rig: .balancingRobot(start: options.stepDegrees, target: target), options: options,
                          rateHz: configuration.loop.rateHz, useTruth: true)
        total += try rig.drive(PoiseConfiguration(values: values), limit: runLimit) { run.observe(&$0, $1) }
        return run.checks
    }
}

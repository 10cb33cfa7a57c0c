import PoiseConfig
import PoiseFlightCore
import PoiseFusion
import PoiseLinux
import PoiseLoop
import PoiseRun
import PoiseSimulation

/// Where the experiment runs: the same experiment code drives the simulated rig's loop on a
/// virtual clock and the real rig's loop on the real-time clock.
protocol TuningRig {
    associatedtype Board: BoardBackend
    var simulated: Bool { get }
    /// SIGINT/SIGTERM (`poise tune` starts their watcher): a stop ends the running experiment
    /// through the loop's own stop, every output safe within a tick, and no later one starts.
    var signals: StopSignals { get }
    /// Builds the loop for `configuration`, runs `body` on it and closes it.
    func withLoop<R>(_ configuration: PoiseConfiguration, _ body: (inout LiveLoop<Board, PoiseFilter>) -> R) throws(TuningError) -> R
}

extension TuningRig {
    /// Runs `observe` on every tick until it says it is done (the loop then stops, failsafe)
    /// or `limit` seconds pass; returns the seconds run.
    func drive(_ configuration: PoiseConfiguration, limit: Double,
               _ observe: (inout LiveLoop<Board, PoiseFilter>, TickRecord) -> Bool) throws(TuningError) -> Double {
        let simulated = self.simulated
        let signals = self.signals
        try stopIfAsked()
        let seconds = try withLoop(configuration) { loop in
            var seconds = 0.0
            var stopping = false
            func each(_ loop: inout LiveLoop<Board, PoiseFilter>, _ record: TickRecord) {
                seconds = record.time + 1 / loop.settings.rateHz
                if !stopping, signals.stopRequested || observe(&loop, record) {
                    stopping = true
                    loop.links.requestStop()
                }
            }
            if simulated {
                loop.run(clock: VirtualClock(rateHz: loop.settings.rateHz, duration: limit), each: each)
            } else {
                loop.run(clock: RealTimeClock(rateHz: loop.settings.rateHz, duration: limit), each: each)
            }
            return seconds
        }
        try stopIfAsked()
        return seconds
    }

    func stopIfAsked() throws(TuningError) {
        guard signals.stopRequested else { return }
        throw TuningError(interruptedBy: signals.signal)
    }
}

struct SimulatedQuadrotorRig: TuningRig {
    let signals: StopSignals
    var simulated: Bool { true }
    func withLoop<R>(_ configuration: PoiseConfiguration,
                     _ body: (inout LiveLoop<SimulatedBoard<QuadrotorWorld>, PoiseFilter>) -> R) throws(TuningError) -> R {
        var loop: LiveLoop<SimulatedBoard<QuadrotorWorld>, PoiseFilter>
        do { loop = try SimulatedRig.quadrotor(configuration) } catch { throw TuningError("\(error)") }
        defer { _ = loop.board.release() }
        return body(&loop)
    }
}

struct SimulatedBalancingRobotRig: TuningRig {
    let signals: StopSignals
    var simulated: Bool { true }
    func withLoop<R>(_ configuration: PoiseConfiguration,
                     _ body: (inout LiveLoop<SimulatedBoard<BalancingRobotWorld>, PoiseFilter>) -> R) throws(TuningError) -> R {
        var loop: LiveLoop<SimulatedBoard<BalancingRobotWorld>, PoiseFilter>
        do { loop = try SimulatedRig.balancingRobot(configuration) } catch { throw TuningError("\(error)") }
        defer { _ = loop.board.release() }
        return body(&loop)
    }
}

/// `board.kind: linux`: the board `poise run` opens.
struct RealRig: TuningRig {
    let signals: StopSignals
    var simulated: Bool { false }
    func withLoop<R>(_ configuration: PoiseConfiguration,
                     _ body: (inout LiveLoop<LinuxBoard, PoiseFilter>) -> R) throws(TuningError) -> R {
        let rig: LinuxRig
        do { rig = try LinuxRig(configuration) } catch { throw TuningError(error.description) }
        defer { rig.close() }
        return body(&rig.loop)
    }
}

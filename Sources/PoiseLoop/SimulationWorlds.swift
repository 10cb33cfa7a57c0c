import PoiseConfig
import PoiseMotion
import PoiseSimulation
import PoiseMath

/// The world `board.kind: sim` puts the chip in, from the `simulation` section.
enum SimulationWorlds {
    enum Plant { case balancingRobot, quadrotor, motion, auto }

    /// `simulation.plant`, with `auto` resolved from the controller.
    static func plant(_ configuration: PoiseConfiguration) -> Plant {
        switch configuration.simulation.plant {
        case .balancingRobot: return .balancingRobot
        case .quadrotor: return .quadrotor
        case .motion: return .motion
        case .auto:
            switch configuration.controller.kind {
            case .balance: return .balancingRobot
            case .quadX, .quadPlus: return .quadrotor
            case .none: return .motion
            }
        }
    }

    static func scripted(_ configuration: PoiseConfiguration) throws -> ScriptedWorld {
        let name = configuration.simulation.motion
        guard let script = MotionScript.preset(named: name) else { throw RunError("simulation.motion: no preset `\(name)`") }
        do { return ScriptedWorld(plant: try ScriptedMotionPlant(script: script, rate: 1000)) } catch {
            throw RunError("simulation.motion: \(error)")
        }
    }

    static func balancingRobot(_ configuration: PoiseConfiguration) throws -> BalancingRobotWorld {
        let tilt = configuration.simulation.initialTiltDegrees * .pi / 180
        return BalancingRobotWorld(plant: BalancingRobotPlant(pitch: tilt))
    }

    /// The quad starts level on its stand (arming wants it level; `initial_tilt_deg` tilts
    /// the balancing robot only); `gust_*` push it about body x.
    static func quadrotor(_ configuration: PoiseConfiguration) throws -> QuadrotorWorld {
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.geometry = configuration.controller.kind == .quadPlus ? .quadPlus() : .quadX()
        let sim = configuration.simulation
        return QuadrotorWorld(plant: QuadrotorStandPlant(parameters: parameters), gustTorque: sim.gustTorque,
                              gustStart: sim.gustTime, gustDuration: sim.gustDuration)
    }
}

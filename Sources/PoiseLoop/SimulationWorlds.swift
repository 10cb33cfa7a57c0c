import PoiseConfig
import PoiseMath
import PoiseMotion
import PoiseSimulation

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

    static func balancingRobot(_ configuration: PoiseConfiguration) throws -> ScriptedWorld {
        throw RunError("the balancing-robot plant is not built yet")
    }

    static func quadrotor(_ configuration: PoiseConfiguration) throws -> ScriptedWorld {
        throw RunError("the quadrotor plant is not built yet")
    }
}

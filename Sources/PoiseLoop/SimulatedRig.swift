import Logging
import PoiseConfig
import PoiseFusion
import PoiseOutputs
import PoiseReplay
import PoiseSensors
import PoiseSettings
import PoiseSimulation

/// The simulated rigs ready to step, for tests and tools that need to reach into the world
/// while the loop runs (inject a sensor fault, push the plant): the same construction
/// `LoopRunner` uses, with the default filter.
public enum SimulatedRig {
    /// The MPU-9250 driver on the simulated chip and bus (with a PCA9685) a configuration
    /// describes: `simulation.sensor_errors`, `simulation.seed`, mounting, calibration.
    public static func driver(_ configuration: PoiseConfiguration, quiet: Bool = true) -> MPU9250<SimulatedI2CBus<HeldMotion>> {
        let sim = configuration.simulation
        let sensorSettings = MPU9250Settings(configuration: configuration)
        let errors = sim.idealSensor ? SimulatedIMUErrors.ideal : SimulatedIMUErrors.typical
        let chip = SimulatedMPU9250(motion: HeldMotion(), errors: errors, mounting: sensorSettings.mounting,
                                    address: sensorSettings.address, seed: UInt64(sim.seed))
        let bus = SimulatedI2CBus(imu: chip, pca9685: SimulatedPCA9685(address: UInt8(configuration.outputs.pca9685.address)))
        var logger = Logger(label: "poise.sensors")
        if quiet { logger.logLevel = .warning }
        var driver = MPU9250(bus: bus, settings: sensorSettings, logger: logger)
        driver.calibration = SensorCalibration(configuration: configuration)
        return driver
    }

    public static func balancingRobot(_ configuration: PoiseConfiguration) throws -> LiveLoop<SimulatedBoard<BalancingRobotWorld>, PoiseFilter> {
        try loop(configuration, world: SimulationWorlds.balancingRobot(configuration))
    }

    public static func quadrotor(_ configuration: PoiseConfiguration) throws -> LiveLoop<SimulatedBoard<QuadrotorWorld>, PoiseFilter> {
        try loop(configuration, world: SimulationWorlds.quadrotor(configuration))
    }

    static func loop<World: SimulatedWorld>(_ configuration: PoiseConfiguration, world: World) throws -> LiveLoop<SimulatedBoard<World>, PoiseFilter> {
        let outputs = OutputBankSettings(configuration: configuration)
        let board = try SimulatedBoard(driver: driver(configuration), outputs: outputs, world: world)
        let filter = PoiseFilter(settings: FilterChoice(configuration: configuration).poise)
        let core = CoreConfiguration.core(configuration, filter: filter)
        let links = LoopLinks(signals: StopSignals(), setpoints: SetpointSchedule(throttle: Float(configuration.controller.quad.throttle)))
        return LiveLoop(board: board, core: core, links: links, settings: LoopSettings(rateHz: configuration.loop.rateHz))
    }
}

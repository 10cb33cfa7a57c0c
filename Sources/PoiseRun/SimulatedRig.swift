import Logging
import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseHAL
import PoiseLoop
import PoiseMath
import PoiseMotion
import PoiseFusion
import PoiseOutputs
import PoiseReplay
import PoiseSchedules
import PoiseSensors
import PoiseSettings
import PoiseSimulation
import PoiseLogging
import PoiseThreads

/// The simulated rig a configuration describes (`board.kind: sim`): the driver on the
/// simulated chip, the world from the `simulation` section, and ready-to-step loops for tests
/// and tools that reach into the world while the loop runs (inject a sensor fault, push the
/// plant) — the same construction `LoopRunner` uses.
public enum SimulatedRig {
    // MARK: The world

    /// The world `board.kind: sim` puts the chip in.
    public enum Plant: String, Sendable { case balancingRobot = "balancing_robot", quadrotor, motion, auto }

    /// `simulation.plant`, with `auto` resolved from the controller.
    public static func plant(_ configuration: PoiseConfiguration) -> Plant {
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

    static func scriptedWorld(_ configuration: PoiseConfiguration) throws -> ScriptedWorld {
        let name = configuration.simulation.motion
        guard let script = MotionScript.preset(named: name) else { throw RunError("simulation.motion: no preset `\(name)`") }
        do { return ScriptedWorld(plant: try ScriptedMotionPlant(script: script, rate: 1000)) } catch {
            throw RunError("simulation.motion: \(error)")
        }
    }

    static func balancingRobotWorld(_ configuration: PoiseConfiguration) throws -> BalancingRobotWorld {
        let sim = configuration.simulation
        let tilt = sim.initialTiltDegrees * .pi / 180
        return BalancingRobotWorld(robot: sim.balancingRobot, pitch: tilt)
    }

    /// The quad starts level on its stand (arming wants it level; `initial_tilt_deg` tilts
    /// the balancing robot only); `gust_*` push it about body x.
    static func quadrotorWorld(_ configuration: PoiseConfiguration) throws -> QuadrotorWorld {
        let sim = configuration.simulation
        let parameters = QuadrotorStandPlant.Parameters(sim.quadrotor, plus: configuration.controller.kind == .quadPlus)
        // The rotors' starting angles: a stream of the run's seed of its own, so turning
        // vibration on changes nothing else the seed draws.
        var random = DeterministicRandom(seed: UInt64(sim.seed) ^ rotorPhaseStream)
        var phases = SIMD4<Double>.zero
        for i in 0..<4 { phases[i] = 2 * .pi * random.nextUniform() }
        return QuadrotorWorld(plant: QuadrotorStandPlant(parameters: parameters, rotorPhases: phases), gustTorque: sim.gustTorque,
                              gustStart: sim.gustTime, gustDuration: sim.gustDuration, actuatorDelay: sim.quadrotor.actuatorDelay)
    }

    /// Seeds the rotors' starting angles with `simulation.seed` ("ROTORPHS").
    static let rotorPhaseStream: UInt64 = 0x524F_544F_5250_4853

    /// The simulated arming switch, when `safety.arm_source` is `switch`: flipped on at
    /// `simulation.switch_on_s` and off again at `switch_off_s` (0: never).
    public static func armSwitch(_ configuration: PoiseConfiguration) -> SimulatedArmSwitch? {
        guard configuration.safety.supervisor.armSource == .armSwitch else { return nil }
        let sim = configuration.simulation
        let edges = [sim.switchOnSeconds] + (sim.switchOffSeconds > 0 ? [sim.switchOffSeconds] : [])
        return SimulatedArmSwitch(edges: edges, debounce: configuration.safety.armSwitch.debounceMilliseconds / 1000,
                                   state: ArmSwitchState())
    }

    /// `simulation.faults` for a board with these output channels (by name, in bank order);
    /// an output_write_failure on a channel the run does not open (`--sensor-only`) is dropped.
    public static func faultSchedule(_ configuration: PoiseConfiguration, channelNames: [String]) -> SimulatedFaultSchedule {
        SimulatedFaultSchedule(configuration.simulation.faults.compactMap { fault in
            let duration = fault.durationSeconds == 0 && fault.kind != .chipReset ? .infinity : fault.durationSeconds
            let kind: SimulatedFault.Kind
            switch fault.kind {
            case .nack: kind = .nack
            case .shortRead: kind = .shortRead
            case .stuckData: kind = .stuckData
            case .chipReset: kind = .chipReset
            case .magnetometerLost: kind = .magnetometerLost
            case .stall: kind = .stall
            case .outputWriteFailure:
                guard let index = channelNames.firstIndex(of: fault.channel) else { return nil }
                kind = .outputWriteFailure(channel: index)
            }
            return SimulatedFault(kind, at: fault.atSeconds, duration: duration)
        })
    }

    /// The simulated wheel encoders, when the balancing robot has them
    /// (`controller.balance.encoders.counts_per_revolution` > 0).
    public static func wheelEncoders(_ configuration: PoiseConfiguration) -> SimulatedWheelEncoders? {
        let controller = configuration.controller
        guard controller.kind == .balance, controller.balance.encoderCountsPerRevolution > 0 else { return nil }
        return SimulatedWheelEncoders(countsPerRevolution: Double(controller.balance.encoderCountsPerRevolution),
                                      state: WheelEncoderState())
    }

    // MARK: The driver and the loop

    /// The MPU-9250 driver on the simulated chip and bus (with a PCA9685) a configuration
    /// describes: `simulation.sensor_errors`, `simulation.seed`, mounting, calibration.
    public static func driver(_ configuration: PoiseConfiguration, quiet: Bool = true) -> MPU9250<SimulatedI2CBus<HeldMotion>> {
        let sim = configuration.simulation
        let sensorSettings = MPU9250Settings(configuration: configuration)
        var errors = sim.idealSensor ? SensorErrorModel.ideal : SensorErrorModel.typical
        errors.seed = UInt64(sim.seed)
        var chip = SimulatedMPU9250(motion: HeldMotion(), errors: errors, mounting: sensorSettings.mounting,
                                    address: sensorSettings.address)
        chip.clockError = sim.sampleClockError
        let bus = SimulatedI2CBus(imu: chip, pca9685: SimulatedPCA9685(address: UInt8(configuration.outputs.pca9685.address)))
        var logger = Logger(label: "poise.sensors") { StandardErrorLogHandler(label: $0) }
        if quiet { logger.logLevel = .warning }
        var driver = MPU9250(bus: bus, settings: sensorSettings, logger: DriverLog(logger))
        driver.calibration = SensorCalibration(configuration: configuration)
        return driver
    }

    public static func balancingRobot(_ configuration: PoiseConfiguration) throws -> LiveLoop<SimulatedBoard<BalancingRobotWorld>, PoiseFilter> {
        try loop(configuration, world: balancingRobotWorld(configuration))
    }

    public static func quadrotor(_ configuration: PoiseConfiguration) throws -> LiveLoop<SimulatedBoard<QuadrotorWorld>, PoiseFilter> {
        try loop(configuration, world: quadrotorWorld(configuration))
    }

    /// The simulated board a configuration describes around `world`: the driver and outputs, the
    /// arming switch, the wheel encoders and the fault schedule. The one builder of the simulated
    /// board: `poise run`/`simulate` (``LoopRunner``) and the tuner's rigs run the same board.
    static func board<World: SimulatedWorld>(_ configuration: PoiseConfiguration, driver: MPU9250<SimulatedI2CBus<HeldMotion>>,
                                             outputs: OutputBankSettings, world: World) throws(OutputError) -> SimulatedBoard<World> {
        var board = try SimulatedBoard(driver: driver, outputs: outputs, world: world)
        board.armSwitch = armSwitch(configuration)
        board.wheelEncoders = wheelEncoders(configuration)
        board.faultSchedule = faultSchedule(configuration, channelNames: outputs.channels.map(\.name))
        return board
    }

    static func loop<World: SimulatedWorld>(_ configuration: PoiseConfiguration, world: World) throws -> LiveLoop<SimulatedBoard<World>, PoiseFilter> {
        let board = try Self.board(configuration, driver: driver(configuration), outputs: OutputBankSettings(configuration: configuration),
                                   world: world)
        let filter = PoiseFilter(settings: FilterSettings(configuration: configuration).poise)
        let core = FlightCoreFactory.core(configuration, filter: filter)
        let links = LoopLinks(signals: StopSignals(), armSwitch: board.armSwitch?.state,
                              setpoints: SetpointSchedule(throttle: Float(configuration.controller.quad.throttle)),
                              drive: try DriveSchedule.forConfiguration(configuration, configPath: nil),
                              encoders: board.wheelEncoders?.state)
        return LiveLoop(board: board, core: core, links: links, settings: LoopSettings(rateHz: configuration.loop.rateHz))
    }
}

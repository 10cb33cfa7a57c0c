import PoiseControl
import PoiseFlightCore
import PoiseMath
import PoiseOutputs
import PoiseSensors

/// The `sim` board: the real MPU-9250 driver on the register-level simulated chip, the real
/// output bank on simulated GPIO, sysfs PWM and PCA9685, and a world (plant or scripted
/// motion) in between — ArduPilot's SITL in one value. The loop cannot tell it from
/// ``LinuxBoard``.
public struct SimulatedBoard<World: SimulatedWorld>: BoardBackend {
    public var driver: MPU9250<SimulatedI2CBus<HeldMotion>>
    public var bank: SimulatedOutputBank
    public var world: World
    public let wiring: ActuatorWiring
    let hardware: [OutputChannelSpec.Hardware]
    /// Where each channel's physical state is read back from, as plain numbers resolved once
    /// (not by chip name, nor by copying the channel specs' strings, every tick).
    var readbackSources: [ReadbackSource] = []
    var readback = ChannelReadback()
    /// The time the world and the chip have been advanced to, s.
    var worldTime = -Double.infinity
    /// The plant's true attitude at `worldTime`.
    var truth = Quaternion.identity
    /// The arming switch, when the configuration arms by switch.
    public var armSwitch: SimulatedArmSwitch?
    /// The wheel encoders, when the configuration has them.
    public var wheelEncoders: SimulatedWheelEncoders?
    /// The time of the last reading, s.
    var lastReadingTime = -Double.infinity
    /// Faults to rehearse (`simulation.faults`), applied as the world's time passes them.
    public var faultSchedule = SimulatedFaultSchedule()
    /// The world's divergence went to ``SimulationWatch/current``.
    var divergenceReported = false
    /// The world's drive reversals as last given to ``SimulationWatch/current``.
    var reversalsReported = 0

    public init(driver: MPU9250<SimulatedI2CBus<HeldMotion>>, outputs: OutputBankSettings, world: World) throws(OutputError) {
        self.driver = driver
        self.world = world
        bank = try SimulatedOutputBank(simulating: outputs, bus: &self.driver.bus)
        wiring = ActuatorWiring(outputs.channels)
        hardware = outputs.channels.map(\.hardware)
        self.driver.bus.imu.motion = world.motion
        resolveReadbackSources()
    }

    public static var simulatesWorld: Bool { true }

    /// The world moves under what the output hardware shows now (the last tick's writes),
    /// then the chip converts what it feels up to `time`.
    public mutating func advanceWorld(to time: Double) {
        updateReadback()
        world.advance(to: time, outputs: readback, wiring: wiring)
        driver.bus.imu.motion = world.motion
        if !faultSchedule.isEmpty { applyFaults(from: worldTime, to: time) }
        driver.bus.advance(to: time)
        worldTime = time
        truth = world.truth
        if !divergenceReported, let divergence = world.divergence {
            // Once per run: the plant's account of its breakdown for the run's report.
            divergenceReported = true
            SimulationWatch.current?.report(divergence)
        }
        if world.driveReversals != reversalsReported {
            reversalsReported = world.driveReversals
            SimulationWatch.current?.report(driveReversals: reversalsReported)
        }
        armSwitch?.advance(to: time)
        if let wheelEncoders, let angles = world.wheelAngles { wheelEncoders.update(wheelAngles: angles) }
    }

    /// The I²C transfer of the newest sample from the chip's registers (the world is already
    /// at `now` unless a deadline was skipped).
    public mutating func read(now: Double) -> SensorReading {
        if worldTime < now { advanceWorld(to: now) }
        let tick = driver.loopTick()
        let sample = tick.sample
        let rate = driver.bus.imuOutputRate
        // The newest conversion the chip made: its sample instant, not the read time. A tick
        // that got no new conversion, when that instant was already reported, reads at its
        // own time: the loop's times only go forward.
        var sampleTime = driver.bus.imu.clockError == 0 ? (now * rate + 1e-9).rounded(.down) / rate
            : driver.bus.imu.newestSampleTime(atOrBefore: now)
        if tick.sample == nil && !(sampleTime > lastReadingTime) { sampleTime = now }
        lastReadingTime = sampleTime
        var reading = SensorReading(sample: sample, time: sampleTime, state: tick.state, readFailed: tick.readFailed)
        reading.truth = truth
        reading.trueSpeed = Float(world.forwardSpeed)
        reading.notices = tick.notices
        return reading
    }

    public mutating func write(_ commands: ChannelCommands, dt: Double) -> OutputFault? {
        bank.write(commands, dt: dt, bus: &driver.bus)
    }

    public mutating func driveSafe() -> OutputFault? {
        bank.driveSafe(bus: &driver.bus)
    }

    public mutating func prepareForTicks() {
        bank.gpio.makeBuffersUnique()
        bank.files.makeBuffersUnique()
        resolveReadbackSources()
    }

    mutating func resolveReadbackSources() {
        readbackSources = hardware.map { spec in
            switch spec {
            case .gpio(let request):
                .gpio(line: bank.gpio.lineIndex(chip: request.chip, line: request.line) ?? -1)
            case .pwm(let chip, let channel, _, _):
                .pwm(chip: chip, channel: channel)
            case .pca9685(let channel):
                .pca9685(channel: channel)
            }
        }
    }

    public mutating func armStateChanged(_ state: ArmState) {
        if state == .armed { world.release() }
    }

    public var sensorErrors: Int { driver.counters.failedTicks }

    /// Lets every simulated output go at its safe value, as the Linux board does.
    public mutating func release() -> [OutputError] {
        bank.release(unexport: false, bus: &driver.bus)
    }

    /// Reads every channel's physical state off the simulated hardware.
    mutating func updateReadback() {
        for index in 0..<readbackSources.count {
            switch readbackSources[index] {
            case .gpio(let line):
                var level = bank.gpio.pinLevel(ofLine: line < 0 ? nil : line)
                if level == nil, case .gpio(let request) = hardware[index] {
                    // Released and requested again since resolved: look it up by name (rare).
                    level = bank.gpio.pinLevel(chip: request.chip, line: request.line)
                }
                readback.high[index] = level ?? false
                readback.duty[index] = level == true ? 1 : 0
                readback.pulseMicroseconds[index] = 0
            case .pwm(let chip, let channel):
                let high = Double(bank.files.highTimeNanoseconds(chip: chip, channel: channel))
                let period = Double(bank.files.periodNanoseconds(chip: chip, channel: channel))
                readback.high[index] = high > 0
                readback.duty[index] = period > 0 ? high / period : 0
                readback.pulseMicroseconds[index] = high / 1000
            case .pca9685(let channel):
                guard let chip = driver.bus.pca9685 else { continue }
                let high = chip.pulseWidthNanoseconds(channel: channel)
                let period = chip.periodNanoseconds
                readback.high[index] = high > 0
                readback.duty[index] = period > 0 ? high / period : 0
                readback.pulseMicroseconds[index] = high / 1000
            }
        }
    }
}

/// Where the simulated board reads one output channel's physical state back from.
enum ReadbackSource {
    /// A GPIO line, by its index in the simulated chip (-1: not requested).
    case gpio(line: Int)
    case pwm(chip: Int, channel: Int)
    case pca9685(channel: Int)
}

import PoiseControl
import PoiseDeviceSettings
import PoiseHAL

/// What the live loop opens and starts around the tick on a real rig, resolved from the
/// configuration: the I²C bus and the MPU-9250 driver's settings, the arming switch's and the
/// wheel encoders' GPIO lines, the loop thread's scheduling, the recorder, the statistics
/// line, telemetry, the pilot's stick scales, the setpoint file and the gamepad. The host's
/// `poise run` builds it once from the YAML (`FlightCoreFactory.settings`) and the board reads
/// it from the compiled file (``FlightSettings/rig``), so the two open the same rig.
public struct RigSettings: Sendable, Equatable {
    /// `board.i2c_bus`: the bus device the MPU-9250 is on.
    public var i2cBus: String
    /// The driver's settings: the `sensor` keys with `board.address`, `board.mounting` and
    /// `loop.rate_hz` as the tick rate (its calibration is ``FlightSettings/calibration``).
    public var sensor: MPU9250Settings
    /// `board.gpio_chip`: the chip the switch and the encoders use when they name none.
    public var gpioChip: String
    /// `safety.switch` when `safety.arm_source` is `switch`; nil otherwise.
    public var armSwitch: ArmSwitch?
    /// `controller.balance.encoders` when the balancing robot has encoders
    /// (`counts_per_revolution` > 0); nil otherwise.
    public var encoders: WheelEncoders?
    /// `loop.realtime_priority`, `loop.cpu`, `loop.lock_memory`.
    public var realtime: Realtime
    /// `recording`.
    public var recording: Recording
    /// `loop.log_interval`: period of the statistics line, s; 0 for none.
    public var logInterval: Double
    /// `telemetry`'s stream, with the world layout and the level channels filled in; its
    /// signing key file is the path as written.
    public var telemetry: TelemetrySettings
    /// `telemetry.address`, HOST:PORT as written; nil when telemetry is off.
    public var telemetryAddress: String?
    /// `input.sticks` and `controller.quad.max_yaw_rate_dps`: full stick as setpoints.
    public var pilot: Pilot
    /// The setpoint file the controller follows, the path as written (`controller.quad.setpoint_file`
    /// for a quadrotor, `controller.balance.setpoint_file` for the balancing robot unless it
    /// names a built-in script, whose rows are ``FlightSettings/setpoints``); empty for none. A
    /// relative path is the reader's to resolve, against the configuration file's folder.
    public var setpointFile: String
    /// `input.gamepad`: no gamepad unless it names a device or a name.
    public var gamepad: GamepadSettings

    public init(i2cBus: String = "/dev/i2c-1", sensor: MPU9250Settings = .default, gpioChip: String = "gpiochip0",
                armSwitch: ArmSwitch? = nil, encoders: WheelEncoders? = nil, realtime: Realtime = Realtime(),
                recording: Recording = Recording(), logInterval: Double = 10, telemetry: TelemetrySettings = TelemetrySettings(),
                telemetryAddress: String? = nil, pilot: Pilot = Pilot(), setpointFile: String = "",
                gamepad: GamepadSettings = GamepadSettings()) {
        self.i2cBus = i2cBus
        self.sensor = sensor
        self.gpioChip = gpioChip
        self.armSwitch = armSwitch
        self.encoders = encoders
        self.realtime = realtime
        self.recording = recording
        self.logInterval = logInterval
        self.telemetry = telemetry
        self.telemetryAddress = telemetryAddress
        self.pilot = pilot
        self.setpointFile = setpointFile
        self.gamepad = gamepad
    }

    /// The arming switch's input line.
    public struct ArmSwitch: Sendable, Equatable {
        /// The line's bias, as libgpiod requests it.
        public typealias Bias = GPIOBias

        /// GPIO chip name, path or label (`board.gpio_chip` when `safety.switch.chip` is empty).
        public var chip: String
        public var line: UInt32
        public var activeLow: Bool
        public var bias: Bias
        /// s; 0 takes every edge.
        public var debounce: Double

        public init(chip: String, line: UInt32, activeLow: Bool = false, bias: Bias = .asIs, debounce: Double = 0.02) {
            self.chip = chip
            self.line = line
            self.activeLow = activeLow
            self.bias = bias
            self.debounce = debounce
        }
    }

    /// The wheel encoders' A and B lines, on one chip.
    public struct WheelEncoders: Sendable, Equatable {
        /// GPIO chip name, path or label (`board.gpio_chip` when the encoders' chip is empty).
        public var chip: String
        public var leftA, leftB, rightA, rightB: UInt32

        public init(chip: String, leftA: UInt32, leftB: UInt32, rightA: UInt32, rightB: UInt32) {
            self.chip = chip
            (self.leftA, self.leftB, self.rightA, self.rightB) = (leftA, leftB, rightA, rightB)
        }
    }

    /// The loop thread's scheduling.
    public struct Realtime: Sendable, Equatable {
        /// SCHED_FIFO priority 1…99; 0 leaves normal scheduling.
        public var priority: Int
        /// The CPU the loop thread is pinned to; −1 for any.
        public var cpu: Int
        /// mlockall before the loop starts.
        public var lockMemory: Bool

        public init(priority: Int = 0, cpu: Int = -1, lockMemory: Bool = true) {
            self.priority = priority
            self.cpu = cpu
            self.lockMemory = lockMemory
        }
    }

    /// The recorder beside the tick.
    public struct Recording: Sendable, Equatable {
        /// How often whole records are handed to the kernel, s.
        public var flushInterval: Double
        /// How often the recording is put on the disk (fdatasync), s; 0 only at the end.
        public var syncInterval: Double
        /// Records the ring between the tick and the writer holds.
        public var ringCapacity: Int

        public init(flushInterval: Double = 0.25, syncInterval: Double = 1, ringCapacity: Int = 2048) {
            self.flushInterval = flushInterval
            self.syncInterval = syncInterval
            self.ringCapacity = ringCapacity
        }
    }

    /// What full stick means.
    public struct Pilot: Sendable, Equatable {
        /// The quad stand's yaw rate at full twist, rad/s.
        public var maxYawRate: Float
        /// The quad stand's tilt, the robot's speed and turn rate at full stick.
        public var sticks: StickScales

        public init(maxYawRate: Float = Float(90 * Double.pi / 180), sticks: StickScales = StickScales()) {
            self.maxYawRate = maxYawRate
            self.sticks = sticks
        }
    }
}

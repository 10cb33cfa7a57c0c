import PoiseControl

extension PoiseConfiguration {
    /// `controller`: which controller runs and its settings as the control laws take them
    /// (radians; the gains are bound in ConfigSchema+Control.swift).
    public struct Controller: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case none, balance
            case quadX = "quad_x", quadPlus = "quad_plus"
        }
        public var kind = Kind.none
        public var balance = BalanceSettings()
        public var drive = Drive()
        public var quad = Quad()

        /// `controller.balance`'s setpoint source and encoder lines (read off the tick).
        public struct Drive: Equatable, Sendable {
            /// Path as written (relative to the config file's folder), or `preset:NAME`; empty for standing still.
            public var setpointFile = ""
            /// `controller.balance.encoders`: the chip (empty: board.gpio_chip) and the A/B line offsets.
            public var encoderChip = ""
            public var leftA = 22, leftB = 23, rightA = 24, rightB = 25
        }

        /// `controller.quad`.
        public struct Quad: Equatable, Sendable {
            public var throttle = 0.5
            /// Path as written (relative to the config file's folder); empty for none.
            public var setpointFile = ""
            /// The gains; `frame` is `.x` until ``FlightCoreFactory`` sets it from the kind.
            public var settings = QuadSettings()
        }
    }

    /// `safety`: the arming supervisor's settings, bound directly (a new supervisor setting is
    /// a field of `SafetySettings` and one binding below), and the arming switch's line.
    public struct Safety: Equatable, Sendable {
        /// What the supervisor runs with, SI units. `overrunLimit` comes from `loop`, and
        /// PoiseSettings' `FlightCoreFactory.safety` applies the rules that look at the
        /// controller (no tilt limit without one; a quadrotor never re-arms by itself).
        public var supervisor = SafetySettings()
        /// `safety.switch`.
        public struct Switch: Equatable, Sendable {
            /// Empty for `board.gpio_chip`.
            public var chip = ""
            public var line = 0
            public var activeLow = false
            public enum Bias: String, CaseIterable, Sendable {
                case asIs = "as_is"
                case disable
                case pullUp = "pull_up"
                case pullDown = "pull_down"
            }
            public var bias = Bias.asIs
            /// ms.
            public var debounceMilliseconds: Double = 20
        }
        public var armSwitch = Switch()
    }
}

extension PoiseConfiguration.Controller {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    /// Every `controller` key, in file order: the kind, the balance gains, the quad's setpoint
    /// source, the quad's gains.
    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        let kind: [ConfigBinding<Self>] = [
            .choice("controller.kind", \.kind, defaults: d,
                    doc: "Which controller drives the `motor*`/`*wheel*` signals; `none` leaves them 0."),
        ]
        let setpoints: [ConfigBinding<Self>] = [
            .number("controller.quad.throttle", \.quad.throttle, range: 0...1, defaults: d,
                    doc: "Fixed collective test throttle, 0…1 (the motors' share of full thrust before attitude corrections).").outsideTheTick("the setpoint source of the quad"),
            .string("controller.quad.setpoint_file", \.quad.setpointFile, defaults: d,
                    doc: "CSV of setpoints over time (`time_s,throttle,pitch_deg,roll_deg,heading_deg`, header required, times rising, held between rows, relative to this file); empty for level at `throttle`.").outsideTheTick("the setpoint source of the quad"),
        ]
        let line = "the wheel encoders' lines, read off the tick"
        let drive: [ConfigBinding<Self>] = [
            .string("controller.balance.setpoint_file", \.drive.setpointFile, defaults: d,
                    doc: "Drive script: CSV of drive setpoints over time (`time_s,speed_m_s,turn_rate_deg_s`, header required, times rising, held between rows, relative to this file), or `preset:default` for the built-in default script (accelerate to 0.5 m/s, turn left 90°, brake); empty stands still.").outsideTheTick("the setpoint source of the balancing robot"),
            .string("controller.balance.encoders.chip", \.drive.encoderChip, defaults: d,
                    doc: "GPIO chip of the encoder lines (name, label or path); empty for board.gpio_chip.").outsideTheTick(line),
            .integer("controller.balance.encoders.left_a", \.drive.leftA, range: 0...1023, defaults: d,
                     doc: "Line offset of the left encoder's A channel (A leads B driving forward; swap a and b if a wheel counts backward).").outsideTheTick(line),
            .integer("controller.balance.encoders.left_b", \.drive.leftB, range: 0...1023, defaults: d, doc: "Line offset of the left encoder's B channel.").outsideTheTick(line),
            .integer("controller.balance.encoders.right_a", \.drive.rightA, range: 0...1023, defaults: d, doc: "Line offset of the right encoder's A channel.").outsideTheTick(line),
            .integer("controller.balance.encoders.right_b", \.drive.rightB, range: 0...1023, defaults: d, doc: "Line offset of the right encoder's B channel.").outsideTheTick(line),
        ]
        return kind + ConfigSchema.balanceBindings.map { $0.lifted(\.balance) } + drive + setpoints
            + ConfigSchema.quadBindings.map { $0.lifted(\.quad.settings) }
    }()
}

extension PoiseConfiguration.Safety {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .number("safety.max_tilt_deg", \.supervisor.maxTilt, range: 0...180, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Tilt from vertical beyond which every output goes safe (the robot has fallen; the quad has flipped).").live(),
            .number("safety.arm_tilt_deg", \.supervisor.armTilt, range: 0...90, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Tilt from vertical within which arming is allowed.").live(),
            .number("safety.arm_hold_s", \.supervisor.armHoldTime, range: 0...60, unit: "s", defaults: d,
                    doc: "How long level, a healthy sensor and an initialised filter must hold before arming.").live(),
            .boolean("safety.auto_arm", \.supervisor.autoArm, defaults: d,
                     doc: "Arm by itself when the conditions hold (and again after a fault that clears); false keeps every output safe.").live(),
            .number("safety.sensor_timeout_ms", \.supervisor.sensorTimeout, range: 1...10000, unit: "ms", .millisecondsToSeconds, defaults: d,
                    doc: "Time without a new sample (a conversion the chip made since the last read) before the sensor counts as lost (a failed read after the driver's retries counts at once).").live(),
            .number("safety.stall_ms", \.supervisor.stallTime, range: 1...10000, unit: "ms", .millisecondsToSeconds, defaults: d,
                    doc: "A tick that wakes this much later than due (the process was stopped, starved or swapped out) drives every output safe in that tick. The default, as long as sensor_timeout_ms, is 4 periods at the default 200 Hz: above a Linux board's ordinary wake-up jitter (overrun_limit handles a slow tick), below the time a falling robot needs to get beyond recovery.").live(),
            .choice("safety.arm_source", \.supervisor.armSource, [(word: "auto", value: .automatic), (word: "switch", value: .armSwitch), (word: "command", value: .command), (word: "gamepad", value: .gamepad)], defaults: d,
                    doc: "What arms the outputs: `auto` the supervisor itself (see auto_arm); `switch` the arming switch (safety.switch) turned from off to on while every arming condition holds; off disarms at once; `command` the ground station's MAV_CMD_COMPONENT_ARM_DISARM (see telemetry.accept_commands), refused with its reason unless every arming condition holds; `gamepad` the gamepad's arm and disarm buttons (input.gamepad), taken as a command is."),
            .choice("safety.rearm", \.supervisor.rearm, [(word: "never", value: .never), (word: "when_level", value: .whenLevel)], defaults: d,
                    doc: "After a failsafe, `never` arms again only by a new switch cycle (or a restart); `when_level` arms by itself once the fault has cleared and the conditions hold (balance controller or none only, a robot picked up and set upright; refused for a quadrotor).").live(),
            .string("safety.switch.chip", \.armSwitch.chip, defaults: d,
                    doc: "GPIO chip of the arming switch (name, label or path); empty for board.gpio_chip.").outsideTheTick("the arming switch's line, read off the tick"),
            .integer("safety.switch.line", \.armSwitch.line, range: 0...1023, defaults: d, doc: "Line offset of the arming switch on its chip.").outsideTheTick("the arming switch's line, read off the tick"),
            .boolean("safety.switch.active_low", \.armSwitch.activeLow, defaults: d,
                     doc: "The switch is on when its line is low (a switch to ground with a pull-up).").outsideTheTick("the arming switch's line, read off the tick"),
            .choice("safety.switch.bias", \.armSwitch.bias, defaults: d, doc: "The line's internal bias: `as_is` leaves what the board set.").outsideTheTick("the arming switch's line, read off the tick"),
            .number("safety.switch.debounce_ms", \.armSwitch.debounceMilliseconds, range: 0...1000, unit: "ms", zeroTurnsOff: true, defaults: d,
                    doc: "A level counts once it has held this long without another edge (contact bounce).").outsideTheTick("the arming switch's debouncer, off the tick"),
        ]
    }()
}

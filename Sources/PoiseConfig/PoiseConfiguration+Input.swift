import PoiseControl
import PoiseDeviceSettings

// The `input` section: a pilot's gamepad, bound straight to the reader's `GamepadSettings`
// (PoiseDeviceSettings), and what full stick means, bound to `StickScales` (PoiseControl);
// their fields hold each default.

extension PoiseConfiguration {
    /// `input`.
    public struct Input: Equatable, Sendable {
        /// `input.gamepad`: off unless a device path or name is given.
        public var gamepad = GamepadSettings()
        /// `input.sticks`: full stick as setpoints, for MANUAL_CONTROL and the gamepad alike.
        public var sticks = StickScales()
    }

    /// `input`, read from ``values`` (derived, so it never disagrees with them).
    public var input: Input { Input(values) }
}

extension PoiseConfiguration.Input {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        let reader = "the gamepad reader, off the tick"
        func stick(_ name: String, _ field: WritableKeyPath<Self, GamepadStick>, _ what: String) -> [ConfigBinding<Self>] {
            [.choice("input.gamepad.\(name)_axis", field.appending(path: \.axis), defaults: d,
                     doc: "Absolute axis (the kernel's ABS_ name, lower case) that drives \(what); `none` holds it centred.").outsideTheTick(reader),
             .boolean("input.gamepad.\(name)_invert", field.appending(path: \.inverted), defaults: d,
                      doc: "The \(name) axis runs the other way (Linux reports a stick pushed up as its minimum).").outsideTheTick(reader)]
        }
        let devices: [ConfigBinding<Self>] = [
            .string("input.gamepad.device", \.gamepad.device, defaults: d,
                    doc: "Event device of the gamepad, e.g. /dev/input/event3; empty: found by name (see docs/gamepad.md).").outsideTheTick(reader),
            .string("input.gamepad.name", \.gamepad.name, defaults: d,
                    doc: "The gamepad's name as the kernel reports it (`poise gamepad` lists them), e.g. Xbox Wireless Controller; it is found again by this name after a disconnect. Both empty: no gamepad.").outsideTheTick(reader),
        ]
        let sticks: [ConfigBinding<Self>] = stick("x", \.gamepad.x, "the forward stick (pitch forward, a robot's speed)")
          + stick("y", \.gamepad.y, "the sideways stick (roll right)")
          + stick("z", \.gamepad.z, "the throttle, 0 at one end of its travel and 1 at the other")
          + stick("r", \.gamepad.r, "the twist stick (yaw rate, a robot's turn rate; positive turns right)")
        let buttons: [ConfigBinding<Self>] = [
            .number("input.gamepad.deadzone_pct", \.gamepad.deadzone, range: 0...50, unit: "%", .percentToFraction, defaults: d,
                    doc: "Travel around an axis's centre read as centred, percent of half its travel; the rest is rescaled so full travel still reaches 1.").outsideTheTick(reader),
            .choice("input.gamepad.arm_button", \.gamepad.armButton, defaults: d,
                    doc: "Button (the kernel's BTN_ name, lower case: south is A on an Xbox pad) whose press asks to arm, with safety.arm_source: gamepad.").outsideTheTick(reader),
            .choice("input.gamepad.disarm_button", \.gamepad.disarmButton, defaults: d,
                    doc: "Button whose press asks to disarm, with safety.arm_source: gamepad.").outsideTheTick(reader),
        ]
        // Read where the loop turns sticks into setpoints, not by the controllers' settings.
        let pilot = "the loop's stick mapping"
        let scales: [ConfigBinding<Self>] = [
            .number("input.sticks.max_speed_m_s", \.sticks.maxSpeed, range: 0.01...5, unit: "m/s", defaults: d,
                    doc: "The balancing robot's forward speed at full forward stick (MANUAL_CONTROL x = 1000, or the gamepad's x axis); the controller ramps to it at its acceleration limit.").outsideTheTick(pilot),
            .number("input.sticks.max_turn_rate_dps", \.sticks.maxTurnRate, range: 1...720, unit: "°/s", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "The balancing robot's turn rate at full twist (MANUAL_CONTROL r = ±1000, or the gamepad's r axis); twist right turns clockwise seen from above.").outsideTheTick(pilot),
            .number("input.sticks.max_tilt_deg", \.sticks.maxTilt, range: 1...45, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "The quad stand's pitch and roll at full forward or sideways stick (its yaw rate at full twist is controller.quad.max_yaw_rate_dps).").outsideTheTick(pilot),
        ]
        return devices + sticks + buttons + scales
    }()
}

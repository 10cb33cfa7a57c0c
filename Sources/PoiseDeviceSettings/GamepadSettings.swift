// The gamepad reader's settings, a plain value type below the configuration: the
// `input.gamepad.*` keys are bound straight to these fields (PoiseConfig), so each default is
// written here only. Axis and button words name the kernel's evdev codes
// (linux/input-event-codes.h), which the Linux reader uses as they are.

/// An absolute axis of an evdev device (`ABS_*`), or none.
public enum GamepadAxis: String, CaseIterable, Sendable, Equatable {
    case none, x, y, z, rx, ry, rz, throttle, rudder, wheel, gas, brake, hat0x, hat0y

    /// The kernel's `ABS_*` code; nil for `none`.
    public var code: UInt16? {
        switch self {
        case .none: nil
        case .x: 0x00
        case .y: 0x01
        case .z: 0x02
        case .rx: 0x03
        case .ry: 0x04
        case .rz: 0x05
        case .throttle: 0x06
        case .rudder: 0x07
        case .wheel: 0x08
        case .gas: 0x09
        case .brake: 0x0a
        case .hat0x: 0x10
        case .hat0y: 0x11
        }
    }

    /// The kernel's name, `ABS_RY`.
    public var kernelName: String { self == .none ? "none" : "ABS_" + rawValue.uppercased() }
}

/// A gamepad button (`BTN_*` of the kernel's gamepad block), or none. `south` is the bottom
/// face button (A on an Xbox pad, ✕ on a PlayStation pad), `select` and `start` the two in
/// the middle (View and Menu on an Xbox pad), `mode` the logo button.
public enum GamepadButton: String, CaseIterable, Sendable, Equatable {
    case none, south, east, north, west, tl, tr, tl2, tr2, select, start, mode, thumbl, thumbr

    /// The kernel's `BTN_*` code; nil for `none`.
    public var code: UInt16? {
        switch self {
        case .none: nil
        case .south: 0x130
        case .east: 0x131
        case .north: 0x133
        case .west: 0x134
        case .tl: 0x136
        case .tr: 0x137
        case .tl2: 0x138
        case .tr2: 0x139
        case .select: 0x13a
        case .start: 0x13b
        case .mode: 0x13c
        case .thumbl: 0x13d
        case .thumbr: 0x13e
        }
    }

    /// The kernel's name, `BTN_START`.
    public var kernelName: String { self == .none ? "none" : "BTN_" + rawValue.uppercased() }
}

/// One stick of ``ManualControl``: which axis drives it and whether the axis runs the other way.
public struct GamepadStick: Sendable, Equatable {
    public var axis: GamepadAxis
    public var inverted: Bool

    public init(axis: GamepadAxis, inverted: Bool = false) {
        self.axis = axis
        self.inverted = inverted
    }
}

/// Which input device is the gamepad and how its axes and buttons become a pilot's sticks.
///
/// The defaults are mode 2 on a standard Linux gamepad (the kernel's gamepad mapping, which
/// Xbox, PlayStation and most USB pads follow): the right stick flies (up forward, right
/// right), the left stick holds throttle (up more) and yaw (right turns right); Linux reports
/// a stick pushed up as the axis minimum, hence the inversions.
public struct GamepadSettings: Sendable, Equatable {
    /// The event device's path (`/dev/input/event3`); nil: found by ``name``.
    public var device: String? = nil
    /// The device's name as the kernel reports it (`poise gamepad` lists them); nil: by path.
    public var name: String? = nil
    /// Forward stick: pitch forward on a quadrotor, forward speed on a robot.
    public var x = GamepadStick(axis: .ry, inverted: true)
    /// Sideways stick: roll right.
    public var y = GamepadStick(axis: .rx)
    /// Throttle: the axis's whole travel is 0…1 (a centred stick is 0.5).
    public var z = GamepadStick(axis: .y, inverted: true)
    /// Yaw rate, turn rate on a robot; positive turns right.
    public var r = GamepadStick(axis: .x)
    /// Travel around the centre read as centred, fraction of half the travel (sticks rarely
    /// come back to exactly the middle); the rest is rescaled so full travel still reaches 1.
    public var deadzone: Float = 0.05
    /// A press asks the loop to arm (it still applies the arming rules).
    public var armButton: GamepadButton = .start
    /// A press asks the loop to disarm.
    public var disarmButton: GamepadButton = .select

    public init() {}

    /// A gamepad is configured.
    public var enabled: Bool { device != nil || name != nil }
}

import PoiseControl
import PoiseDeviceSettings

/// Turns a gamepad's evdev events into a pilot's sticks (``ManualControl``) under a mapping
/// (``GamepadSettings``): the axes normalised with the ranges the device reported, a
/// deadzone around each centre, buttons as bits, and the arm and disarm buttons' presses.
/// Plain data, no system calls: the reader feeds it what it reads.
public struct GamepadDecoder: Sendable {
    /// What one event meant.
    public enum Outcome: Sendable, Equatable {
        case none
        /// `SYN_REPORT`: a complete, consistent state; ``control`` is the sticks now.
        case report
        /// The arm or disarm button went down.
        case armPressed, disarmPressed
        /// The report ending a `SYN_DROPPED` gap: events were lost, so the state must be
        /// read again from the device (``resynchronise(values:held:)``) before it is used.
        case resynchronise
    }

    public let settings: GamepadSettings
    /// Ranges of the x, y, z and r axes (nil: the stick is not mapped).
    let ranges: [EvdevAxisRange?]
    /// Raw values of the x, y, z and r axes.
    var values: [Int32]
    /// ``ManualControl/buttons``.
    public private(set) var buttons: UInt32 = 0
    var dropping = false

    /// `ranges` by axis code, as `EVIOCGABS` reported them (their values are the sticks now);
    /// `held`, the buttons held now (a held arm button is no press).
    public init(settings: GamepadSettings, ranges: [UInt16: EvdevAxisRange], held: Set<UInt16> = []) {
        self.settings = settings
        let sticks = [settings.x, settings.y, settings.z, settings.r]
        self.ranges = sticks.map { stick in stick.axis.code.flatMap { ranges[$0] } }
        values = self.ranges.map { $0?.value ?? 0 }
        buttons = Self.bits(held)
    }

    /// The sticks now.
    public var control: ManualControl {
        let sticks = [settings.x, settings.y, settings.z, settings.r]
        var n = [Float](repeating: 0, count: 4)
        for index in 0..<4 {
            if let range = ranges[index] {
                n[index] = Self.normalise(values[index], range, inverted: sticks[index].inverted, deadzone: settings.deadzone)
            }
        }
        return ManualControl(x: n[0], y: n[1], z: (n[2] + 1) / 2, r: n[3], buttons: buttons)
    }

    /// Takes one event.
    public mutating func apply(_ event: EvdevEvent) -> Outcome {
        if event.type == EvdevEvent.synchronization {
            if event.code == EvdevEvent.dropped {
                dropping = true
                return .none
            }
            guard event.code == EvdevEvent.report else { return .none }
            if dropping {
                dropping = false
                return .resynchronise
            }
            return .report
        }
        if dropping { return .none }
        switch event.type {
        case EvdevEvent.absolute:
            let sticks = [settings.x, settings.y, settings.z, settings.r]
            for index in 0..<4 where sticks[index].axis.code == event.code { values[index] = event.value }
            return .none
        case EvdevEvent.key:
            guard let bit = Self.bit(event.code) else { return .none }
            let wasDown = buttons & (1 << bit) != 0
            // 1 pressed, 0 released, 2 the keyboard's auto-repeat (no new press).
            if event.value == 0 { buttons &= ~(1 << bit) } else { buttons |= 1 << bit }
            guard event.value == 1, !wasDown else { return .none }
            if event.code == settings.armButton.code { return .armPressed }
            if event.code == settings.disarmButton.code { return .disarmPressed }
            return .none
        default:
            return .none
        }
    }

    /// The state read again after a gap: the axes' values by code and the buttons held.
    public mutating func resynchronise(values current: [UInt16: Int32], held: Set<UInt16>) {
        let sticks = [settings.x, settings.y, settings.z, settings.r]
        for index in 0..<4 {
            if let code = sticks[index].axis.code, let value = current[code] { values[index] = value }
        }
        buttons = Self.bits(held)
    }

    /// `value` within `range` as −1…1 (the range's middle is 0), clamped; within `deadzone`
    /// (fraction of half the travel) of the middle 0, the rest rescaled to reach ±1.
    public static func normalise(_ value: Int32, _ range: EvdevAxisRange, inverted: Bool, deadzone: Float) -> Float {
        let half = (Double(range.maximum) - Double(range.minimum)) / 2
        guard half > 0 else { return 0 }
        let centre = (Double(range.maximum) + Double(range.minimum)) / 2
        var n = Float(max(-1, min(1, (Double(value) - centre) / half)))
        if inverted { n = -n }
        let size = abs(n)
        guard size > deadzone else { return 0 }
        return (n < 0 ? -1 : 1) * min(1, (size - deadzone) / (1 - deadzone))
    }

    /// The bit of ``ManualControl/buttons`` for a button code: the gamepad block
    /// (`BTN_SOUTH` 0x130 … 0x13f) is bits 0–15, the joystick block (`BTN_TRIGGER` 0x120 …
    /// 0x12f) bits 16–31; other keys have none.
    public static func bit(_ code: UInt16) -> UInt32? {
        switch code {
        case 0x130...0x13f: UInt32(code - 0x130)
        case 0x120...0x12f: UInt32(code - 0x120 + 16)
        default: nil
        }
    }

    static func bits(_ held: Set<UInt16>) -> UInt32 {
        held.reduce(0) { bits, code in bit(code).map { bits | 1 << $0 } ?? bits }
    }
}

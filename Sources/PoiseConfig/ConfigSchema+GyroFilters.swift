import PoiseFusion

extension ConfigSchema {
    // `filter.gyro`: the gyroscope's low-pass and notches, bound to `GyroFilterSettings` the
    // way the filter keys are (default = the settings struct's own). The low-pass order, a
    // notch's mode and its harmonics are an integer and words, which ConfigBinding has no
    // helper for yet, so those three bindings are spelled out below.

    static let gyroFilterGroups: [ConfigGroup] = [
        ConfigGroup("filter.gyro", doc: "Gyroscope low-pass and notches, on every axis before the attitude filter and the controllers' rate terms (all off by default); `poise spectrum` shows where the noise is and what these take away."),
    ] + (1...GyroFilterSettings.notchCount).map {
        ConfigGroup("filter.gyro.notch\($0)", doc: "Notch \($0): static, or following the motors' throttle (with harmonics).")
    }

    /// `filter.gyro`, bound to `GyroFilterSettings`.
    public static let gyroFilterBindings: [ConfigBinding<GyroFilterSettings>] = {
        let d = GyroFilterSettings.default
        let lowPass: [ConfigBinding<GyroFilterSettings>] = [
            .number("filter.gyro.low_pass_hz", \.lowPassCutoff, range: 1...2000, unit: "Hz", zeroTurnsOff: 0, defaults: d,
                    doc: "Low-pass −3 dB frequency; 0 turns the low-pass off. Phase lag grows as it comes down toward the loops' bandwidth (second order at 80 Hz, 1 kHz loop: 10.0° / 2.8 ms at 10 Hz, 31.1° / 2.9 ms at 30 Hz; first order: 7.0° / 1.9 ms, 20.2° / 1.9 ms)."),
            integer("filter.gyro.low_pass_order", \.lowPassOrder, range: 1...2, defaults: d,
                    doc: "1: first order (6 dB/octave, less lag); 2: second-order Butterworth (12 dB/octave)."),
        ]
        return lowPass + (0..<GyroFilterSettings.notchCount).flatMap { notchBindings(slot: $0, defaults: d) }
    }()

    static func notchBindings(slot: Int, defaults d: GyroFilterSettings) -> [ConfigBinding<GyroFilterSettings>] {
        let p = "filter.gyro.notch\(slot + 1)"
        let n: WritableKeyPath<GyroFilterSettings, GyroNotchSettings> = \.notches[slot]
        return [
            mode("\(p).mode", n.appending(path: \.mode), defaults: d,
                 doc: "`off`; `static`: centre fixed at center_hz; `throttle`: centre = center_hz · √(mean motor command / reference_throttle), not below minimum_hz (ArduPilot's throttle-based harmonic notch)."),
            .number("\(p).center_hz", n.appending(path: \.centerFrequency), range: 1...4000, unit: "Hz", defaults: d,
                    doc: "Centre; for `throttle`, the centre at reference_throttle (the hover peak `poise spectrum` lists)."),
            .number("\(p).bandwidth_hz", n.appending(path: \.bandwidth), range: 1...4000, unit: "Hz", defaults: d,
                    doc: "Width: the −3 dB width an infinitely deep notch would have; a throttle notch keeps centre/width as it moves, and harmonic k is k times as wide. Half the centre is a usual start (80 Hz, 40 Hz wide, 40 dB deep at 1 kHz: 3.7° / 1.0 ms of lag at 10 Hz, 12.5° / 1.2 ms at 30 Hz)."),
            .number("\(p).attenuation_db", n.appending(path: \.attenuation), range: 1...80, unit: "dB", defaults: d,
                    doc: "Depth at the centre."),
            integer("\(p).harmonics", n.appending(path: \.harmonics), range: 1...GyroFilterSettings.maximumHarmonics, defaults: d,
                    doc: "Notches at 1×, 2×, … this many times the centre (each one more section per axis)."),
            .number("\(p).reference_throttle", n.appending(path: \.referenceThrottle), range: 0.01...1, defaults: d,
                    doc: "Mean motor command (0…1) at which the motors turn at center_hz: the hover throttle."),
            .number("\(p).minimum_hz", n.appending(path: \.minimumFrequency), range: 1...4000, unit: "Hz", zeroTurnsOff: 0, defaults: d,
                    doc: "Lowest centre a throttle notch moves to at low throttle; 0: center_hz itself (the notch only moves up)."),
        ]
    }

    /// A whole number bound to an `Int` field.
    static func integer<S>(_ path: String, _ field: WritableKeyPath<S, Int>, range: ClosedRange<Int>,
                           defaults: S, doc: String) -> ConfigBinding<S> {
        let key = ConfigKey(path: path, type: .integer(range: range), default: .integer(defaults[keyPath: field]), doc: doc)
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in settings[keyPath: field] = values.integer(path) }
    }

    /// A notch's mode, one of its words.
    static func mode<S>(_ path: String, _ field: WritableKeyPath<S, GyroNotchSettings.Mode>,
                        defaults: S, doc: String) -> ConfigBinding<S> {
        let key = ConfigKey(path: path, type: .enumeration(GyroNotchSettings.Mode.allCases.map(\.rawValue)),
                            default: .string(defaults[keyPath: field].rawValue), doc: doc)
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in settings[keyPath: field] = values.choice(path) }
    }
}

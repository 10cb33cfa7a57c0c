import Testing
import PoiseConfig

/// Each bad file with exactly the messages a user should see, in order.
struct BadConfigCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    let expected: [String]
    var testDescription: String { name }
}

/// The names of the `loop` keys, in schema order: what an unknown `loop` key's message lists
/// (computed, so adding a loop key does not change this file).
let loopKeyNames = ConfigSchema.keys.filter { $0.path.hasPrefix("loop.") }.map(\.name).joined(separator: ", ")

let badConfigs: [BadConfigCase] = [
    BadConfigCase(name: "syntax error", yaml: "board:\n  kind: sim\n kind: linux\n", expected: [
        "t.yaml:3: YAML syntax error: did not find expected key (while parsing a block mapping on line 1)",
    ]),
    BadConfigCase(name: "unclosed flow sequence", yaml: "sensor:\n  calibration:\n    gyroscope_bias: [1, 2\n", expected: [
        "t.yaml:4: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence on line 3)",
    ]),
    BadConfigCase(name: "tab indentation", yaml: "board:\n\tkind: sim\n", expected: [
        "t.yaml:2: YAML syntax error: found character that cannot start any token (while scanning for the next token on line 2); indent with spaces, YAML does not allow tabs",
    ]),
    BadConfigCase(name: "merge key", yaml: "loop:\n  <<: {cpu: 1}\n", expected: [
        "t.yaml:2: loop.<<: YAML merge keys are not supported; write the keys out",
    ]),
    BadConfigCase(name: "duplicate key", yaml: "loop:\n  rate_hz: 100\n  cpu: 1\n  rate_hz: 5\n", expected: [
        "t.yaml:4: loop.rate_hz: duplicate key; already given on line 2",
    ]),
    BadConfigCase(name: "duplicate nested key", yaml: "filter:\n  madgwick:\n    beta: 1\n\n    # again\n    beta: 2\n", expected: [
        "t.yaml:6: filter.madgwick.beta: duplicate key; already given on line 3",
    ]),
    BadConfigCase(name: "duplicate section", yaml: "loop:\n  cpu: 1\nboard:\n  kind: sim\nloop:\n  cpu: 2\n", expected: [
        "t.yaml:5: loop: duplicate key; already given on line 1",
    ]),
    BadConfigCase(name: "duplicate key in a flow mapping", yaml: "loop: {cpu: 1, cpu: 2}\n", expected: [
        "t.yaml:1: cpu: key appears more than once in the same mapping",
    ]),
    BadConfigCase(name: "wrong type", yaml: "loop:\n  rate_hz: fast\n", expected: [
        "t.yaml:2: loop.rate_hz: expected a number, got `fast` (allowed: 1…2000 Hz)",
    ]),
    BadConfigCase(name: "quoted number", yaml: "sensor:\n  sample_rate_hz: \"200\"\n", expected: [
        "t.yaml:2: sensor.sample_rate_hz: expected a number, got the quoted string `200` (allowed: 4…1000 Hz)",
    ]),
    BadConfigCase(name: "boolean as word", yaml: "sensor:\n  fifo: yes\n", expected: [
        "t.yaml:2: sensor.fifo: expected a boolean, got `yes` (allowed: true, false)",
    ]),
    BadConfigCase(name: "integer with fraction", yaml: "loop:\n  overrun_limit: 2.5\n", expected: [
        "t.yaml:2: loop.overrun_limit: expected an integer, got `2.5` (allowed: 1…1000)",
    ]),
    BadConfigCase(name: "out of range", yaml: "filter:\n  madgwick:\n    beta: 20\n", expected: [
        "t.yaml:3: filter.madgwick.beta: `20` is out of range (allowed: 0…10)",
    ]),
    BadConfigCase(name: "out of range with unit", yaml: "filter:\n  complementary:\n    time_constant: 0.001\n", expected: [
        "t.yaml:3: filter.complementary.time_constant: `0.001` is out of range (allowed: 0.01…100 s)",
    ]),
    BadConfigCase(name: "not a finite number", yaml: "safety:\n  max_tilt_deg: nan\n", expected: [
        "t.yaml:2: safety.max_tilt_deg: expected a finite number, got `nan` (allowed: 0…180 °)",
    ]),
    BadConfigCase(name: "value not in choices", yaml: "sensor:\n  accelerometer_range_g: 3\n", expected: [
        "t.yaml:2: sensor.accelerometer_range_g: `3` is not one of the allowed values (allowed: 2, 4, 8, 16 g)",
    ]),
    BadConfigCase(name: "hexadecimal choices", yaml: "board:\n  address: 0x70\n", expected: [
        "t.yaml:2: board.address: `0x70` is not one of the allowed values (allowed: 0x68, 0x69)",
    ]),
    BadConfigCase(name: "enumeration typo", yaml: "filter:\n  name: madgwik\n", expected: [
        "t.yaml:2: filter.name: unknown value `madgwik`; did you mean `madgwick`? (allowed: poise, mekf, madgwick, mahony, complementary)",
    ]),
    BadConfigCase(name: "unknown key with suggestion", yaml: "board:\n  kind: linux\n  adress: 0x69\n", expected: [
        "t.yaml:3: board.adress: unknown key; did you mean `address`?",
    ]),
    BadConfigCase(name: "unknown section", yaml: "filtre:\n  name: poise\n", expected: [
        "t.yaml:1: filtre: unknown key; did you mean `filter`?",
    ]),
    BadConfigCase(name: "unknown key without suggestion", yaml: "loop:\n  wibble: 3\n", expected: [
        "t.yaml:2: loop.wibble: unknown key (allowed: \(loopKeyNames))",
    ]),
    BadConfigCase(name: "key in the wrong subsection", yaml: "filter:\n  beta: 0.2\n", expected: [
        "t.yaml:2: filter.beta: unknown key here; did you mean `madgwick.beta`?",
    ]),
    BadConfigCase(name: "empty value", yaml: "loop:\n  cpu:\n", expected: [
        "t.yaml:2: loop.cpu: has no value; give one or delete the key (allowed: -1…1023)",
    ]),
    BadConfigCase(name: "section is a scalar", yaml: "loop: 200\n", expected: [
        "t.yaml:1: loop: expected a mapping of keys, got `200` (allowed: \(loopKeyNames))",
    ]),
    BadConfigCase(name: "root is a list", yaml: "- board\n- loop\n", expected: [
        "t.yaml:1: expected a mapping of sections, got a list (allowed: board, sensor, filter, frame, controller, safety, outputs, loop, recording, simulation, telemetry, input)",
    ]),
    BadConfigCase(name: "mirror-image mounting", yaml: "board:\n  mounting: +x+y-z\n", expected: [
        "t.yaml:2: board.mounting: `+x+y-z`: this is a mirror image (determinant −1), not a rotation; flip one sign (allowed: a signed permutation of x, y, z forming a rotation, e.g. +x+y+z, +y-x+z)",
    ]),
    BadConfigCase(name: "mounting with a repeated axis", yaml: "board:\n  mounting: +x+x+z\n", expected: [
        "t.yaml:2: board.mounting: `+x+x+z`: each of x, y and z must appear exactly once (allowed: a signed permutation of x, y, z forming a rotation, e.g. +x+y+z, +y-x+z)",
    ]),
    BadConfigCase(name: "malformed mounting", yaml: "board:\n  mounting: xyz\n", expected: [
        "t.yaml:2: board.mounting: `xyz`: expected three signed axes such as +x+y+z (allowed: a signed permutation of x, y, z forming a rotation, e.g. +x+y+z, +y-x+z)",
    ]),
    BadConfigCase(name: "short vector", yaml: "sensor:\n  calibration:\n    gyroscope_bias: [0, 0]\n", expected: [
        "t.yaml:3: sensor.calibration.gyroscope_bias: expected 3 numbers, got 2",
    ]),
    BadConfigCase(name: "bad matrix element", yaml: "sensor:\n  calibration:\n    magnetometer_soft_iron:\n      - [1, 0, 0]\n      - [0, 1, 0]\n      - [0, 0, x]\n", expected: [
        "t.yaml:6: sensor.calibration.magnetometer_soft_iron[2][2]: expected a number, got `x`",
    ]),
    BadConfigCase(name: "bad list elements", yaml: """
        outputs:
          channels:
            - name: a
              kind: pwm
              channel: 1
              source: yaw
            - kind: pwm
              source: elevator
            - 5
          pca9685: {line: 3}
        """, expected: [
        "t.yaml:7: outputs.channels[1].name: missing required key",
        "t.yaml:8: outputs.channels[1].source: unknown value `elevator` (allowed: \(ConfigSchema.outputSignals.joined(separator: ", ")))",
        "t.yaml:9: outputs.channels[2]: expected a mapping of keys, got `5` (allowed: name, kind, source, chip, line, channel, active_low, drive, threshold, safe_value, period_us, polarity, input_min, input_max, pulse_min_us, pulse_max_us, duty_min, duty_max, invert, slew_rate, safe_us, safe_duty)",
        "t.yaml:10: outputs.pca9685.line: unknown key (allowed: address, frequency_hz, oscillator_hz)",
    ]),
    BadConfigCase(name: "flow list element out of range", yaml: "outputs:\n  channels:\n    - {name: a, kind: gpio, line: 17, source: faceDown}\n    - {name: b, kind: gpio, line: 5000, safe_value: 2, source: atRest}\n", expected: [
        "t.yaml:4: outputs.channels[1].line: `5000` is out of range (allowed: -1…4095)",
        "t.yaml:4: outputs.channels[1].safe_value: `2` is not one of the allowed values (allowed: 0, 1)",
    ]),
    BadConfigCase(name: "output channel rules", yaml: """
        outputs:
          channels:
            - {name: led, kind: gpio, source: fault}
            - {name: esc, kind: pca9685, channel: 16, source: motor1}
            - {name: servo, kind: pwm, chip: 0, channel: 0, source: pitch, pulse_min_us: 2000, pulse_max_us: 1000}
            - {name: servo2, kind: pwm, channel: 1, source: pitch, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 2500}
            - {name: duty, kind: pwm, channel: 2, source: left_wheel_duty, duty_min: 0.8, duty_max: 0.2, input_min: 1, input_max: 0}
            - {name: both, kind: pwm, channel: 3, source: motor2, pulse_min_us: 1000, pulse_max_us: 2000, duty_max: 0.5, safe_us: 1000, safe_duty: 0.1}
            - {name: fat, kind: pwm, channel: 4, period_us: 1000, source: motor3, pulse_min_us: 1000, pulse_max_us: 2000}
            - {name: led, kind: gpio, line: 5, source: armed, safe_us: 3}
            - {name: led2, kind: gpio, chip: gpiochip0, line: 5, source: armed}
            - {name: esc2, kind: pca9685, channel: 0, source: motor1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 900}
            - {name: bad, kind: pwm, chip: x, channel: 0, source: motor1}
        """, expected: [
        "t.yaml:3: outputs.channels[0].kind: a gpio channel needs `line` (the line offset, e.g. 17 for GPIO17)",
        "t.yaml:4: outputs.channels[1].channel: a pca9685 channel needs `channel` 0…15",
        "t.yaml:5: outputs.channels[2].pulse_max_us: pulse_min_us (2000 µs) is longer than pulse_max_us (1000 µs); use invert: true to reverse",
        "t.yaml:6: outputs.channels[3].safe_us: safe_us (2500 µs) lies outside pulse_min_us…pulse_max_us (1000…2000 µs); 0 means no pulse",
        "t.yaml:7: outputs.channels[4].input_max: input_min (1) must be below input_max (0)",
        "t.yaml:7: outputs.channels[4].duty_max: duty_min (0.8) is above duty_max (0.2); use invert: true to reverse",
        "t.yaml:8: outputs.channels[5].duty_max: give either pulse_min_us/pulse_max_us or duty_min/duty_max, not both",
        "t.yaml:8: outputs.channels[5].safe_duty: give either safe_us or safe_duty, not both",
        "t.yaml:9: outputs.channels[6].pulse_max_us: a 2000 µs pulse does not fit the 1000 µs period (period_us)",
        "t.yaml:10: outputs.channels[7].safe_us: `safe_us` applies to pwm and pca9685 channels; a gpio channel uses threshold and safe_value",
        "t.yaml:10: outputs.channels[7].name: the name `led` is also used by outputs.channels[0]",
        "t.yaml:11: outputs.channels[8].line: gpiochip0 line 5 is also driven by `led` (outputs.channels[7])",
        "t.yaml:12: outputs.channels[9].safe_us: safe_us (900 µs) lies outside pulse_min_us…pulse_max_us (1000…2000 µs); 0 means no pulse",
        "t.yaml:13: outputs.channels[10].chip: a pwm chip is the number N of /sys/class/pwm/pwmchipN, got `x`",
    ]),
    BadConfigCase(name: "more than 16 channels", yaml: "outputs:\n  channels:\n" + (0..<17).map { "    - {name: m\($0), kind: gpio, line: \($0), source: armed}\n" }.joined(), expected: [
        "t.yaml:3: outputs.channels: at most 16 output channels, got 17",
    ]),
    BadConfigCase(name: "north reference without magnetometer", yaml: "frame:\n  output: xMagneticNorthZVertical\nfilter:\n  magnetometer: false\n", expected: [
        "t.yaml:2: frame.output: `xMagneticNorthZVertical` needs filter.magnetometer: true",
    ]),
    BadConfigCase(name: "9D filter without magnetometer", yaml: "sensor:\n  magnetometer: false\n", expected: [
        "t.yaml:2: sensor.magnetometer: filter.magnetometer is true but sensor.magnetometer is false; set filter.magnetometer: false for 6D fusion",
    ]),
    BadConfigCase(name: "every problem at once, in line order", yaml: "loop:\n  rate_hz: 0\n  cpu: -2\nboard:\n  kind: pi\n", expected: [
        "t.yaml:2: loop.rate_hz: `0` is out of range (allowed: 1…2000 Hz)",
        "t.yaml:3: loop.cpu: `-2` is out of range (allowed: -1…1023)",
        "t.yaml:5: board.kind: unknown value `pi` (allowed: sim, linux)",
    ]),
    BadConfigCase(name: "gamepad rules", yaml: "safety:\n  arm_source: gamepad\ninput:\n  gamepad:\n    arm_button: south\n    disarm_button: south\n", expected: [
        "t.yaml:2: safety.arm_source: `gamepad` needs one: set input.gamepad.name (or input.gamepad.device), see docs/gamepad.md",
        "t.yaml:5: input.gamepad.arm_button: south is also the disarm_button: give them different buttons",
    ]),
    BadConfigCase(name: "gamepad axis word", yaml: "input:\n  gamepad:\n    x_axis: stick\n", expected: [
        "t.yaml:3: input.gamepad.x_axis: unknown value `stick` (allowed: none, x, y, z, rx, ry, rz, throttle, rudder, wheel, gas, brake, hat0x, hat0y)",
    ]),
    BadConfigCase(name: "gamepad by path and by name", yaml: "input:\n  gamepad:\n    device: /dev/input/event3\n    name: Pad\n", expected: [
        "t.yaml:3: input.gamepad.device: give the gamepad by input.gamepad.device or by input.gamepad.name, not both (a name finds the pad again after a disconnect, when its event number may change)",
    ]),
]

@Test(arguments: badConfigs)
func badConfigurationIsReportedExactly(_ badCase: BadConfigCase) {
    do {
        let configuration = try PoiseConfiguration.parse(text: badCase.yaml, file: "t.yaml")
        Issue.record("accepted: \(configuration.values)")
    } catch {
        #expect(error.errors.map(\.description) == badCase.expected)
        #expect(error.description == badCase.expected.joined(separator: "\n"))
    }
}

@Test func errorsCarryTheirParts() throws {
    let error = try #require(throws: ConfigErrors.self) {
        try PoiseConfiguration.parse(text: "filter:\n  madgwick:\n    beta: 20\n", file: "f.yaml")
    }
    #expect(error.errors == [ConfigError(file: "f.yaml", line: 3, column: 11, key: "filter.madgwick.beta",
                                         message: "`20` is out of range", allowed: "0…10")])
}

@Test func missingFileIsAClearError() {
    #expect(throws: ConfigErrors([ConfigError(file: "/nonexistent/poise.yaml", message: "no such file")])) {
        try PoiseConfiguration.load(path: "/nonexistent/poise.yaml")
    }
}

@Test func integersAreDecimalOrHexadecimalWithOneSign() throws {
    for (text, value) in [("0x69", 0x69), ("105", 105), ("+105", 105), ("0X69", 0x69)] {
        let configuration = try PoiseConfiguration.parse(text: "board:\n  address: \(text)\n", file: "i.yaml")
        #expect(configuration.board.address == value, "\(text)")
    }
    #expect(try PoiseConfiguration.parse(text: "loop:\n  cpu: -1\n", file: "i.yaml").loop.cpu == -1)
    for text in ["0x-5", "--1", "+-1", "1_0", "0o7", "1.0", "0x", "-", "1e2", "٣"] {
        #expect(throws: ConfigErrors.self, "\(text)") {
            try PoiseConfiguration.parse(text: "loop:\n  overrun_limit: \(text)\n", file: "i.yaml")
        }
    }
}

import Testing
import PoiseConfig

/// Each bad file with exactly the messages a user should see, in order.
struct BadConfigCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    let expected: [String]
    var testDescription: String { name }
}

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
        "t.yaml:2: loop.wibble: unknown key (allowed: rate_hz, overrun_limit, realtime_priority, cpu)",
    ]),
    BadConfigCase(name: "key in the wrong subsection", yaml: "filter:\n  beta: 0.2\n", expected: [
        "t.yaml:2: filter.beta: unknown key here; did you mean `madgwick.beta`?",
    ]),
    BadConfigCase(name: "empty value", yaml: "loop:\n  cpu:\n", expected: [
        "t.yaml:2: loop.cpu: has no value; give one or delete the key (allowed: -1…1023)",
    ]),
    BadConfigCase(name: "section is a scalar", yaml: "loop: 200\n", expected: [
        "t.yaml:1: loop: expected a mapping of keys, got `200` (allowed: rate_hz, overrun_limit, realtime_priority, cpu)",
    ]),
    BadConfigCase(name: "root is a list", yaml: "- board\n- loop\n", expected: [
        "t.yaml:1: expected a mapping of sections, got a list (allowed: board, sensor, filter, frame, controller, safety, outputs, loop, telemetry)",
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
          pwm:
            - chip: 0
              channel: 1
              source: yaw
            - chip: 0
              source: elevator
            - 5
          gpio: {line: 3}
        """, expected: [
        "t.yaml:6: outputs.pwm[1].channel: missing required key (allowed: 0…1023)",
        "t.yaml:7: outputs.pwm[1].source: unknown value `elevator` (allowed: pitch, roll, yaw, controller)",
        "t.yaml:8: outputs.pwm[2]: expected a mapping of keys, got `5` (allowed: chip, channel, period_us, safe_duty_us, source)",
        "t.yaml:9: outputs.gpio: expected a list of tables, got a mapping",
    ]),
    BadConfigCase(name: "flow list element out of range", yaml: "outputs:\n  gpio:\n    - {line: 17, source: faceDown}\n    - {line: 5000, safe_value: 2, source: atRest}\n", expected: [
        "t.yaml:4: outputs.gpio[1].line: `5000` is out of range (allowed: 0…4095)",
        "t.yaml:4: outputs.gpio[1].safe_value: `2` is not one of the allowed values (allowed: 0, 1)",
    ]),
    BadConfigCase(name: "north reference without magnetometer", yaml: "frame:\n  output: xMagneticNorthZVertical\nfilter:\n  magnetometer: false\n", expected: [
        "t.yaml:2: frame.output: `xMagneticNorthZVertical` needs filter.magnetometer: true",
    ]),
    BadConfigCase(name: "9D filter without magnetometer", yaml: "sensor:\n  magnetometer: false\n", expected: [
        "t.yaml:2: sensor.magnetometer: filter.magnetometer is true but sensor.magnetometer is false; set filter.magnetometer: false for 6D fusion",
    ]),
    BadConfigCase(name: "safe pulse longer than the period", yaml: "controller:\n  kind: pid\noutputs:\n  pwm:\n    - chip: 0\n      channel: 0\n      source: controller\n      period_us: 1000\n", expected: [
        "t.yaml:8: outputs.pwm[0].period_us: safe_duty_us (1500 µs) is longer than period_us (1000 µs)",
    ]),
    BadConfigCase(name: "controller output without controller", yaml: "outputs:\n  pwm:\n    - {chip: 0, channel: 0, source: pitch}\n    - {chip: 0, channel: 1, source: controller}\n", expected: [
        "t.yaml:4: outputs.pwm[1].source: `controller` needs a controller; set controller.kind: pid",
    ]),
    BadConfigCase(name: "every problem at once, in line order", yaml: "loop:\n  rate_hz: 0\n  cpu: -2\nboard:\n  kind: pi\n", expected: [
        "t.yaml:2: loop.rate_hz: `0` is out of range (allowed: 1…2000 Hz)",
        "t.yaml:3: loop.cpu: `-2` is out of range (allowed: -1…1023)",
        "t.yaml:5: board.kind: unknown value `pi` (allowed: sim, linux)",
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

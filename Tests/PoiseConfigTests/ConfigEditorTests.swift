import Foundation
import PoiseConfig
import PropertyBased
import Testing

/// `ConfigEditor` changes the keys it is given and nothing else: every other byte of the file,
/// comments included, stays where it was.
@Suite struct ConfigEditorTests {
    static let allCalibration: [(path: String, value: ConfigValue)] = [
        ("sensor.calibration.gyroscope_bias", .vector3([0.0125, -0.5, 3e-05])),
        ("sensor.calibration.accelerometer_offset", .vector3([0.08, -0.12, 0.2])),
        ("sensor.calibration.accelerometer_scale", .vector3([1.01, 0.995, 1.02])),
        ("sensor.calibration.magnetometer_hard_iron", .vector3([25.0, -12.0, 30.5])),
        ("sensor.calibration.magnetometer_soft_iron", .matrix3(ConfigMatrix3([0.95, 0.01, 0], [0.01, 1.05, -0.002], [0, -0.002, 0.98]))),
    ]

    static let calibrationNames = ["gyroscope_bias", "accelerometer_offset", "accelerometer_scale",
                                   "magnetometer_hard_iron", "magnetometer_soft_iron"]

    /// Every line of `original` except replaced calibration keys appears in `edited`, in order;
    /// every line `edited` adds is a calibration key or a section header above one.
    func expectOnlyCalibrationChanged(_ original: String, _ edited: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let old = original.split(separator: "\n", omittingEmptySubsequences: false)
        let new = edited.split(separator: "\n", omittingEmptySubsequences: false)
        func isCalibrationKey(_ line: Substring) -> Bool {
            let trimmed = line.drop { $0 == " " }
            return Self.calibrationNames.contains { trimmed.hasPrefix($0 + ":") }
        }
        var cursor = 0
        for line in old where !isCalibrationKey(line) {
            while cursor < new.count, new[cursor] != line {
                let extra = new[cursor].drop { $0 == " " }
                #expect(isCalibrationKey(new[cursor]) || extra == "calibration:" || extra == "sensor:" || extra.isEmpty,
                        "unexpected new line `\(new[cursor])`", sourceLocation: sourceLocation)
                cursor += 1
            }
            #expect(cursor < new.count, "line `\(line)` was lost", sourceLocation: sourceLocation)
            cursor += 1
        }
    }

    func expectReadsBack(_ text: String, _ values: [(path: String, value: ConfigValue)],
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let configuration = try PoiseConfiguration.parse(text: text, file: "edited.yaml")
        for (path, value) in values {
            #expect(configuration.values[path] == value, "\(path)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["sim.yaml", "raspberry-pi-mpu9250.yaml", "poise.example.yaml"])
    func shippedBoardsKeepEveryOtherLine(_ name: String) throws {
        let original = try String(contentsOf: repositoryRoot.appending(path: "boards/\(name)"), encoding: .utf8)
        let edited = try ConfigEditor.setting(Self.allCalibration, in: original, file: name)
        try expectReadsBack(edited, Self.allCalibration)
        expectOnlyCalibrationChanged(original, edited)
        // Only the calibration values differ from what the file said before.
        var expected = try PoiseConfiguration.parse(text: original, file: name).values
        for (path, value) in Self.allCalibration { expected[path] = value }
        #expect(try PoiseConfiguration.parse(text: edited, file: name).values == expected)
        // Setting the same values again changes nothing.
        #expect(try ConfigEditor.setting(Self.allCalibration, in: edited, file: name) == edited)
    }

    @Test func existingKeyIsReplacedInPlaceWithItsComment() throws {
        let original = """
            # My robot.
            board:
              kind: linux   # the real chip

            sensor:
              dlpf_hz: 41
              calibration:
                # From last winter.
                gyroscope_bias: [0.01, 0.02, 0.03]   # rad/s
                magnetometer_hard_iron: [1, 2, 3]
              fifo: false

            # The loop.
            loop:
              rate_hz: 100

            """
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([-0.5, 0.25, 1.0]))],
                                              in: original, file: "robot.yaml")
        #expect(edited == original.replacingOccurrences(of: "[0.01, 0.02, 0.03]   # rad/s", with: "[-0.5, 0.25, 1.0]   # rad/s"))
    }

    @Test func missingSensorSectionIsAppended() throws {
        let original = "# Minimal.\nboard:\n  kind: sim\n"
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([0.5, 0, -0.25]))],
                                              in: original, file: "min.yaml")
        #expect(edited == "# Minimal.\nboard:\n  kind: sim\n\nsensor:\n  calibration:\n    gyroscope_bias: [0.5, 0.0, -0.25]\n")
    }

    @Test func emptyFileGetsTheSectionsOnly() throws {
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([0.5, 0, -0.25]))],
                                              in: "", file: "empty.yaml")
        #expect(edited == "sensor:\n  calibration:\n    gyroscope_bias: [0.5, 0.0, -0.25]\n")
        #expect(ConfigEditor.snippet([("sensor.calibration.gyroscope_bias", .vector3([0.5, 0, -0.25]))]) == edited)
    }

    @Test func anAllDefaultsFileTakesTheKeys() throws {
        let value: [(path: String, value: ConfigValue)] = [("sensor.calibration.gyroscope_bias", .vector3([0.5, 0, -0.25]))]
        #expect(try ConfigEditor.setting(value, in: "{}\n", file: "d.yaml")
            == "sensor:\n  calibration:\n    gyroscope_bias: [0.5, 0.0, -0.25]\n")
        #expect(try ConfigEditor.setting(value, in: "# Every key at its default.\n{}  # on purpose\n", file: "d.yaml")
            == "# Every key at its default.\n# on purpose\n\nsensor:\n  calibration:\n    gyroscope_bias: [0.5, 0.0, -0.25]\n")
    }

    @Test func aFileWrittenInFlowStyleIsLeftAlone() throws {
        let value: [(path: String, value: ConfigValue)] = [("sensor.calibration.gyroscope_bias", .vector3([0.5, 0, -0.25]))]
        #expect {
            try ConfigEditor.setting(value, in: "{board: {kind: sim}}\n", file: "f.yaml")
        } throws: { error in
            "\(error)".hasPrefix("f.yaml:1: the whole file is written in flow style")
        }
    }

    @Test func missingCalibrationGoesAtTheEndOfSensorWithItsIndentation() throws {
        let original = """
            sensor:
                dlpf_hz: 41
                fifo: true
                # Trailing comment of the section stays after it.

            # Next section.
            loop:
                rate_hz: 100
            """
        let edited = try ConfigEditor.setting([("sensor.calibration.magnetometer_hard_iron", .vector3([1.5, -2, 3]))],
                                              in: original, file: "four.yaml")
        #expect(edited == """
            sensor:
                dlpf_hz: 41
                fifo: true
                calibration:
                    magnetometer_hard_iron: [1.5, -2.0, 3.0]
                # Trailing comment of the section stays after it.

            # Next section.
            loop:
                rate_hz: 100
            """)
    }

    @Test func newKeyJoinsAnExistingCalibrationBlock() throws {
        let original = "sensor:\n  calibration:\n    gyroscope_bias: [0, 0, 0]\n  fifo: false\nloop:\n  rate_hz: 100\n"
        let edited = try ConfigEditor.setting([("sensor.calibration.accelerometer_scale", .vector3([1, 1.5, 0.75]))],
                                              in: original, file: "t.yaml")
        #expect(edited == "sensor:\n  calibration:\n    gyroscope_bias: [0, 0, 0]\n    accelerometer_scale: [1.0, 1.5, 0.75]\n  fifo: false\nloop:\n  rate_hz: 100\n")
    }

    @Test func valueOnFollowingLinesIsReplacedWhole() throws {
        let original = """
            sensor:
              calibration:
                gyroscope_bias:
                  - 0.1
                  - 0.2
                  - 0.3
                # keep me
                magnetometer_soft_iron:
                - [1, 0, 0]
                - [0, 1, 0]
                - [0, 0, 1]
              fifo: false

            """
        let soft = ConfigMatrix3([2, 0, 0], [0, 2, 0], [0, 0, 2])
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([0, 0, 1])),
                                               ("sensor.calibration.magnetometer_soft_iron", .matrix3(soft))],
                                              in: original, file: "t.yaml")
        #expect(edited == """
            sensor:
              calibration:
                gyroscope_bias: [0.0, 0.0, 1.0]
                # keep me
                magnetometer_soft_iron: [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]
              fifo: false

            """)
    }

    @Test func nullSectionBecomesABlock() throws {
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3]))],
                                              in: "sensor: ~  # nothing yet\n", file: "t.yaml")
        #expect(edited == "sensor:  # nothing yet\n  calibration:\n    gyroscope_bias: [1.0, 2.0, 3.0]\n")
    }

    @Test func quotedKeysAndADocumentMarkerAreUnderstood() throws {
        let original = "---\n\"sensor\":\n  'calibration':\n    \"gyroscope_bias\": [0, 0, 0]\n"
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3]))],
                                              in: original, file: "t.yaml")
        #expect(edited == "---\n\"sensor\":\n  'calibration':\n    \"gyroscope_bias\": [1.0, 2.0, 3.0]\n")
    }

    @Test func fileWithoutFinalNewlineStaysWithout() throws {
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3]))],
                                              in: "sensor:\n  calibration:\n    gyroscope_bias: [0, 0, 0]", file: "t.yaml")
        #expect(edited == "sensor:\n  calibration:\n    gyroscope_bias: [1.0, 2.0, 3.0]")
    }

    @Test func windowsLineEndsAreKept() throws {
        let original = "board:\r\n  kind: sim\r\nsensor:\r\n  calibration:\r\n    gyroscope_bias: [0, 0, 0]\r\n"
        let edited = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3])),
                                               ("sensor.calibration.magnetometer_hard_iron", .vector3([4, 5, 6]))],
                                              in: original, file: "t.yaml")
        #expect(edited == "board:\r\n  kind: sim\r\nsensor:\r\n  calibration:\r\n    gyroscope_bias: [1.0, 2.0, 3.0]\r\n    magnetometer_hard_iron: [4.0, 5.0, 6.0]\r\n")
    }

    /// One-line flow sections are edited in place (FlowStyleEditingTests); one spread over
    /// lines is refused.
    @Test func oneLineFlowSectionsAreEditedInTheirStyle() throws {
        let value = [("sensor.calibration.gyroscope_bias", ConfigValue.vector3([1, 2, 3]))]
        #expect(try ConfigEditor.setting(value, in: "sensor:\n  calibration: {gyroscope_bias: [0, 0, 0]}\n", file: "f.yaml")
            == "sensor:\n  calibration: {gyroscope_bias: [1.0, 2.0, 3.0]}\n")
        #expect(try ConfigEditor.setting(value, in: "board:\n  kind: sim\nsensor: {dlpf_hz: 41}\n", file: "f.yaml")
            == "board:\n  kind: sim\nsensor: {dlpf_hz: 41, calibration: {gyroscope_bias: [1.0, 2.0, 3.0]}}\n")
    }

    @Test(arguments: [
        ("sensor:\n  calibration: {\n    gyroscope_bias: [0, 0, 0]\n  }\n", 2, "sensor.calibration"),
    ])
    func flowStyleSectionsAreRefusedNotCorrupted(_ text: String, line: Int, key: String) {
        #expect {
            _ = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3]))], in: text, file: "flow.yaml")
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == line && error.key == key && error.message.contains("flow style")
                && error.description.hasPrefix("flow.yaml:\(line): \(key): written in flow style")
        }
    }

    @Test func invalidFilesAndUnknownKeysAreRefused() {
        #expect(throws: ConfigError.self) {
            _ = try ConfigEditor.setting([("sensor.calibration.gyroscope_bias", .vector3([1, 2, 3]))],
                                         in: "sensor:\n  dlpf_hz: 7\n", file: "bad.yaml")
        }
        #expect(throws: ConfigError.self) {
            _ = try ConfigEditor.setting([("sensor.calibration.gyro_bias", .vector3([1, 2, 3]))], in: "", file: "t.yaml")
        }
        // Anchors and aliases are left to the user.
        #expect(throws: ConfigError.self) {
            _ = try ConfigEditor.setting([(path: "sensor.calibration.gyroscope_bias", yaml: "[1, 2, 3]")],
                                         in: "sensor: &common\n  fifo: false\n", file: "t.yaml")
        }
        // A section that holds a plain value cannot take keys.
        #expect(throws: ConfigError.self) {
            _ = try ConfigEditor.setting([(path: "sensor.calibration.gyroscope_bias", yaml: "[1, 2, 3]")],
                                         in: "sensor: 3\n", file: "t.yaml")
        }
    }

    /// Any vector written reads back exactly: the shortest decimal of each number is written.
    @Test func everyValueReadsBackExactly() async {
        let component = Gen.double(in: -1000...1000)
        await propertyCheck(count: 200, input: component, component, component) { x, y, z in
            let values: [(path: String, value: ConfigValue)] = [("sensor.calibration.magnetometer_hard_iron", .vector3([x, y, z]))]
            let text = "# Board.\nsensor:\n  calibration:\n    magnetometer_hard_iron: [0, 0, 0]  # µT\n"
            let edited = try? ConfigEditor.setting(values, in: text, file: "p.yaml")
            #expect(edited != nil)
            if let edited {
                #expect(edited.hasPrefix("# Board.\nsensor:\n  calibration:\n    magnetometer_hard_iron: ["))
                #expect(edited.hasSuffix("]  # µT\n"))
                let loaded = try? PoiseConfiguration.parse(text: edited, file: "p.yaml")
                #expect(loaded?.values["sensor.calibration.magnetometer_hard_iron"] == .vector3([x, y, z]))
            }
        }
    }
}

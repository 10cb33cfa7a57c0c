import Testing
import PoiseConfig

/// `simulation.faults`: the list parses into typed faults, and every mistake is reported
/// with its file, line and column.
@Suite struct FaultScheduleConfigTests {
    static let channels = """
        outputs:
          channels:
            - {name: left_pwm, kind: pwm, channel: 0, source: left_wheel_duty}
            - {name: standby, kind: gpio, line: 26, source: armed}

        """

    /// The problems of `faults` (the lines under `simulation:`), each as `line:column: text`.
    static func problems(_ faults: String, prefix: String = channels) -> [String] {
        let text = prefix + "simulation:\n  faults:\n" + faults
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "f.yaml")
            return []
        } catch {
            return error.errors.map { "\($0.line ?? 0):\($0.column ?? 0): \($0.description)" }
        }
    }

    /// The line `faults:` is on: entries start on the next.
    static let firstEntryLine = channels.split(separator: "\n", omittingEmptySubsequences: false).count + 2

    @Test func everyKindParsesIntoTypedFaults() throws {
        let text = Self.channels + """
            simulation:
              faults:
                - {at_s: 1, kind: nack, duration_s: 0.5}
                - {at_s: 2, kind: short_read, duration_s: 0.1}
                - {at_s: 3, kind: stuck_data, duration_s: 1}
                - {at_s: 4, kind: chip_reset}
                - {at_s: 5, kind: magnetometer_lost}
                - {at_s: 6, kind: output_write_failure, channel: left_pwm}
                - {at_s: 7, kind: stall, duration_s: 2}

            """
        let faults = try PoiseConfiguration.parse(text: text, file: "f.yaml").simulation.faults
        #expect(faults.map(\.kind) == [.nack, .shortRead, .stuckData, .chipReset, .magnetometerLost, .outputWriteFailure, .stall])
        #expect(faults.map(\.atSeconds) == [1, 2, 3, 4, 5, 6, 7])
        #expect(faults.map(\.durationSeconds) == [0.5, 0.1, 1, 0, 0, 0, 2])
        #expect(faults[5].channel == "left_pwm")
        #expect(PoiseConfiguration.default.simulation.faults.isEmpty)
    }

    @Test func anUnknownKindIsReportedAtItsValueWithTheKinds() {
        let problems = Self.problems("    - {at_s: 1, kind: brownout}\n")
        let line = Self.firstEntryLine
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("\(line):23: f.yaml:\(line): simulation.faults[0].kind: ") == true, "\(problems)")
        #expect(problems.first?.contains("nack, short_read, stuck_data, chip_reset, magnetometer_lost, output_write_failure, stall") == true)
    }

    @Test func aMissingStartTimeIsReportedAtItsEntry() {
        let problems = Self.problems("    - {kind: nack}\n")
        #expect(problems == ["\(Self.firstEntryLine):7: f.yaml:\(Self.firstEntryLine): simulation.faults[0].at_s: missing required key (allowed: 0…86400 s)"])
    }

    @Test func negativeTimesAreOutOfRange() {
        let problems = Self.problems("    - at_s: -1\n      kind: nack\n    - at_s: 2\n      kind: nack\n      duration_s: -0.5\n")
        let line = Self.firstEntryLine
        #expect(problems == [
            "\(line):13: f.yaml:\(line): simulation.faults[0].at_s: `-1` is out of range (allowed: 0…86400 s)",
            "\(line + 4):19: f.yaml:\(line + 4): simulation.faults[1].duration_s: `-0.5` is out of range (allowed: 0…86400 s)",
        ])
    }

    @Test func aChannelMustBeAnOutputChannelAndOnlyForOutputFailures() {
        let line = Self.firstEntryLine
        #expect(Self.problems("    - {at_s: 1, kind: output_write_failure, channel: right_pwm}\n") == [
            "\(line):54: f.yaml:\(line): simulation.faults[0].channel: no output channel is named `right_pwm`; outputs.channels has left_pwm, standby",
        ])
        let missing = Self.problems("    - {at_s: 1, kind: output_write_failure}\n")
        #expect(missing.count == 1)
        #expect(missing.first?.contains("simulation.faults[0].kind: output_write_failure needs `channel`: the name of an output channel (left_pwm, standby)") == true, "\(missing)")
        #expect(Self.problems("    - {at_s: 1, kind: nack, channel: standby}\n") == [
            "\(line):38: f.yaml:\(line): simulation.faults[0].channel: `channel` applies to output_write_failure only, not nack",
        ])
    }

    @Test func aStallNeedsItsLengthAndAChipResetIsAnInstant() {
        let line = Self.firstEntryLine
        let stall = Self.problems("    - {at_s: 1, kind: stall}\n")
        #expect(stall.count == 1)
        #expect(stall.first?.contains("simulation.faults[0].kind: a stall needs `duration_s`") == true, "\(stall)")
        let reset = Self.problems("    - {at_s: 1, kind: chip_reset, duration_s: 2}\n")
        #expect(reset.count == 1)
        #expect(reset.first?.hasPrefix("\(line):47: f.yaml:\(line): simulation.faults[0].duration_s: chip_reset is an instant") == true, "\(reset)")
    }

    @Test func overlappingFaultsOfOneKindAreRefusedAndOthersMayOverlap() {
        let line = Self.firstEntryLine
        let problems = Self.problems("""
                - {at_s: 1, kind: nack, duration_s: 2}
                - {at_s: 2.5, kind: nack, duration_s: 1}
                - {at_s: 4, kind: nack}
                - {at_s: 1.5, kind: short_read, duration_s: 1}

            """)
        #expect(problems == [
            "\(line):14: f.yaml:\(line): simulation.faults[0].at_s: overlaps simulation.faults[1] (2.5…3.5 s): two nack faults at once make no difference; make it one fault, or let one end before the other starts",
            "\(line + 1):14: f.yaml:\(line + 1): simulation.faults[1].at_s: overlaps simulation.faults[0] (1…3 s): two nack faults at once make no difference; make it one fault, or let one end before the other starts",
        ])
        // Until the end (duration 0) overlaps everything after it; the same instant twice too.
        #expect(Self.problems("    - {at_s: 1, kind: stuck_data}\n    - {at_s: 9, kind: stuck_data, duration_s: 1}\n").count == 2)
        #expect(Self.problems("    - {at_s: 1, kind: chip_reset}\n    - {at_s: 1, kind: chip_reset}\n").first?.contains("the same fault is listed twice") == true)
        // Different channels are different faults.
        #expect(Self.problems("    - {at_s: 1, kind: output_write_failure, channel: left_pwm}\n    - {at_s: 1, kind: output_write_failure, channel: standby}\n").isEmpty)
    }

    @Test func faultsNeedTheSimulatedBoardAndAMagnetometerToLose() {
        let linux = Self.problems("    - {at_s: 1, kind: nack}\n", prefix: "board:\n  kind: linux\n")
        #expect(linux.count == 1)
        #expect(linux.first?.contains("simulation.faults: faults are rehearsed on the simulated board only (board.kind: sim)") == true, "\(linux)")
        let noMagnetometer = Self.problems("    - {at_s: 1, kind: magnetometer_lost}\n",
                                           prefix: "sensor:\n  magnetometer: false\nfilter:\n  magnetometer: false\n")
        #expect(noMagnetometer.count == 1)
        #expect(noMagnetometer.first?.contains("magnetometer_lost rehearses nothing") == true, "\(noMagnetometer)")
    }
}

import Foundation
import Testing

/// `simulation.faults` in the whole program: `poise simulate` (and once `poise run`) with a
/// fault list, the built-in balancing robot armed and balancing when each fault comes, and the
/// loop's answer as docs/safety.md states it — read back from the recording and the log.
@Suite struct FaultRehearsalTests {
    /// The recording's rows by column name.
    struct Recording {
        let header: [String]
        let rows: [[Double]]
        let lines: [Substring]

        init(path: String) throws {
            lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            header = lines[0].split(separator: ",").map(String.init)
            rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan } }
        }

        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no column \(name)") }
        var outputs: [Int] { header.indices.filter { header[$0].hasPrefix("out_") } }
        /// The first row at or after tick time `time`.
        func row(at time: Double) throws -> Int {
            let t = try column("tick_t")
            return try #require(rows.firstIndex { $0[t] >= time - 1e-9 })
        }
        /// The first failsafe transition at or after `time`: its row.
        func failsafe(from time: Double) throws -> Int? {
            let t = try column("tick_t"), arm = try column("arm"), event = try column("event")
            return rows.indices.first { rows[$0][t] >= time - 1e-9 && rows[$0][arm] == 2 && rows[$0][event] != 0 }
        }
        func isSafe(_ row: Int) -> Bool { outputs.allSatisfy { rows[row][$0] == 0 } }
        func armed(_ row: Int) throws -> Bool { rows[row][try column("arm")] == 1 }
        func armedAnywhere(after row: Int) throws -> Bool {
            let arm = try column("arm")
            return rows[(row + 1)...].contains { $0[arm] == 1 }
        }
    }

    /// SafetyReason raw values as the recording's `event` column holds them.
    enum Event: Double { case sensorLost = 3, unexpectedError = 8, stall = 10, chipReset = 13 }

    /// The built-in balancing robot (1 kHz; armed from 3.6 s) with `faults`
    /// under `simulation.faults`, simulated for `duration` s with a recording.
    static func simulate(_ faults: String, duration: Double = 5, extraSafety: String = "",
                         command: String = "simulate", status: Int32 = 0) throws -> (run: PoiseRun, recording: Recording, path: String, config: String) {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "robot.yaml").path, recording = dir.appending(path: "run.csv").path
        try (String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "safety:\n", with: "safety:\n" + extraSafety)
            .replacingOccurrences(of: "loop:\n", with: command == "run" ? "loop:\n  overrun_limit: 1000\n" : "loop:\n")
            + "  faults:\n" + faults)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try poise([command, "--config", config, "--record", recording, "--duration", String(duration)])
        #expect(run.status == status, "\(run.error)")
        return (run, try Recording(path: recording), recording, config)
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aChipThatStopsAcknowledgingIsLostInThatTickAndNothingRearms() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: nack, duration_s: 0.5}\n", duration: 6.5)
        let at = try r.row(at: 4.5)
        #expect(try r.armed(at - 1), "armed before the fault")
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        #expect(failsafe == at, "failsafe in the tick the chip stopped answering")
        #expect(r.rows[failsafe][try r.column("event")] == Event.sensorLost.rawValue)
        #expect(r.rows[failsafe][try r.column("read_failed")] == 1)
        #expect(r.isSafe(failsafe))
        #expect(run.error.contains("s: failsafe — sensor lost"), "\(run.error)")
        #expect(run.error.contains("Remote I/O error"), "\(run.error)")
        // The chip answers again from 5 s: the driver re-initialises it and samples flow,
        // but nothing arms by itself (safety.rearm: never).
        let sample = try r.column("sample")
        #expect(r.rows[(try r.row(at: 4.5))...].contains { $0[sample] == 1 }, "the sensor came back")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aShortReadIsAFailedReadInThatTick() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: short_read, duration_s: 0.2}\n", duration: 5.5)
        let at = try r.row(at: 4.5)
        #expect(try r.armed(at - 1))
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        #expect(failsafe == at)
        #expect(r.rows[failsafe][try r.column("event")] == Event.sensorLost.rawValue)
        #expect(r.isSafe(failsafe))
        #expect(run.error.contains("Input/output error"), "\(run.error)")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    /// Frozen registers with data-ready still set look like good samples: only the driver's
    /// identical-bursts check (50 in a row) can tell, so the failsafe comes 50 reads later.
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func stuckDataIsCaughtByTheIdenticalBurstCheck() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: stuck_data, duration_s: 0.5}\n", duration: 5.5)
        #expect(try r.armed(try r.row(at: 4.5) - 1))
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        let t = try r.column("tick_t")
        #expect(r.rows[failsafe][t] <= 4.551, "caught after 50 identical reads at 1 kHz")
        #expect(r.rows[failsafe][try r.column("event")] == Event.sensorLost.rawValue)
        #expect(r.isSafe(failsafe))
        #expect(run.error.contains("sensor: sensor lost: stuck data: 50 identical reads in a row"), "\(run.error)")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    /// Needs the driver's checked registers (one re-read per tick): the reset is found within the
    /// checked-register cycle, reported as a chip reset, and the chip re-configured. Without
    /// them the chip, back at power-on values, never raises data-ready again and only
    /// `sensor_timeout_ms` catches it, as a lost sensor that never returns.
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aChipResetIsFoundReportedAndTheChipReconfigured() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: chip_reset}\n", duration: 6)
        #expect(try r.armed(try r.row(at: 4.5) - 1))
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        let t = try r.column("tick_t")
        #expect(r.rows[failsafe][t] <= 4.52, "within safety.sensor_timeout_ms")
        #expect(r.isSafe(failsafe))
        #expect(r.rows[failsafe][try r.column("event")] == Event.chipReset.rawValue, "\(run.error)")
        #expect(run.error.contains("sensor chip reset"), "\(run.error)")
        let sample = try r.column("sample")
        #expect(r.rows[(try r.row(at: 5.5))...].contains { $0[sample] == 1 }, "re-configured, samples flow again")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    /// A lost magnetometer is no failsafe: the driver says so and goes on in 6D, still armed.
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aLostMagnetometerIsReportedAndTheLoopGoesOnIn6D() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: magnetometer_lost}\n", duration: 5.5)
        #expect(try r.failsafe(from: 4.5) == nil, "no failsafe (the stop at the end is a disarm): \(run.error)")
        let line = try #require(run.error.split(separator: "\n").first { $0.contains("the AK8963 stopped answering") }, "\(run.error)")
        let time = try #require(Double(line.dropFirst("poise: ".count).prefix { $0 != " " }))
        #expect(time >= 4.5 && time <= 4.7, "\(line)")
        #expect(try r.armed(r.rows.count - 2), "still balancing at the end")
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aFailingOutputDrivesEverythingSafeAndLatches() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: output_write_failure, channel: left_pwm}\n", duration: 5,
                                               status: 1)
        let at = try r.row(at: 4.5)
        #expect(try r.armed(at - 1))
        // The failing write is in the tick at 4.5 s, which drives the bank safe at once; the
        // next tick records the failsafe.
        #expect(r.rows[at][try r.column("output_fault")] == 0)
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        #expect(failsafe == at + 1)
        #expect(r.rows[failsafe][try r.column("output_fault")] == 1)
        #expect(r.rows[failsafe][try r.column("event")] == Event.unexpectedError.rawValue)
        #expect(r.isSafe(failsafe))
        #expect(run.error.contains("s: failsafe — unexpected error"), "\(run.error)")
        // The broken channel cannot be let go at its safe value either: said, and exit 1.
        #expect(run.error.contains("poise: output left_pwm (pwmchip0/pwm0): /sys/class/pwm/pwmchip0/pwm0/duty_cycle: cannot write \"0\": Input/output error"), "\(run.error)")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aStallOfTheLoopsClockFailsSafeInTheTickAfterIt() throws {
        let (run, r, _, _) = try Self.simulate("    - {at_s: 4.5, kind: stall, duration_s: 1.5}\n", duration: 6.5)
        let t = try r.column("tick_t")
        let jump = try #require(r.rows.indices.dropFirst().first { r.rows[$0][t] - r.rows[$0 - 1][t] > 1 })
        #expect(abs(r.rows[jump][t] - r.rows[jump - 1][t] - 1.501) < 1e-6, "the tick due at 4.5 s wakes 1.5 s late")
        #expect(try r.armed(jump - 1))
        let failsafe = try #require(try r.failsafe(from: 4.5), "\(run.error)")
        #expect(failsafe == jump)
        #expect(r.rows[failsafe][try r.column("event")] == Event.stall.rawValue)
        #expect(r.isSafe(failsafe))
        #expect(run.error.contains("failsafe — loop stalled longer than safety.stall_ms"), "\(run.error)")
        #expect(try !r.armedAnywhere(after: failsafe))
    }

    /// The same configuration and seed give the same bytes, faults and all, and the recording
    /// replays to the same estimates, states and outputs.
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aRunWithFaultsIsReproducibleAndReplays() throws {
        let faults = """
                - {at_s: 4, kind: magnetometer_lost, duration_s: 0.5}
                - {at_s: 4.5, kind: nack, duration_s: 0.05}
                - {at_s: 4.7, kind: stuck_data, duration_s: 0.2}
                - {at_s: 5.1, kind: output_write_failure, channel: standby, duration_s: 0.2}
                - {at_s: 5.4, kind: stall, duration_s: 0.1}

            """
        let first = try Self.simulate(faults, duration: 6), second = try Self.simulate(faults, duration: 6)
        #expect(first.recording.lines == second.recording.lines)
        let replayed = first.path + ".replayed.csv"
        let replay = try poise(["replay", first.path, "--config", first.config, "-o", replayed, "--quiet"])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(try Recording(path: replayed).lines == first.recording.lines)
    }

    /// `poise run` (the simulated board on the real clock) takes the same list.
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func poiseRunRehearsesTheSameFaults() throws {
        // Overruns tolerated and a wide stall limit: a loaded test machine's slow ticks must
        // not fail it safe before the fault does.
        let (run, r, _, _) = try Self.simulate("    - {at_s: 2.5, kind: nack, duration_s: 0.3}\n", duration: 3.5,
                                               extraSafety: "  stall_ms: 300\n", command: "run")
        let at = try r.row(at: 2.5)
        #expect(r.rows[at][try r.column("tick_t")] < 2.8, "a tick within the fault: \(run.error)")
        #expect(r.rows[at][try r.column("read_failed")] == 1)
        #expect(r.isSafe(at))
        #expect(run.error.contains("sensor: read failed"), "\(run.error)")
    }
}

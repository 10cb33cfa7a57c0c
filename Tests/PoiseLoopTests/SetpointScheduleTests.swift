import Foundation
import PoiseConfig
import PoiseControl
import PoiseLoop
import PoiseReplay
import PoiseRun
import PoiseSchedules
import Testing

@Suite struct SetpointScheduleTests {
    @Test func rowsAreHeldBetweenTheirTimes() throws {
        var schedule = try SetpointSchedule(path: "s.csv", text: """
            # a step in pitch at 2 s, level again at 4 s
            time_s,throttle,pitch_deg,roll_deg,heading_deg
            0,0.5,0,0,0
            2,0.55,5,0,0
            4,0.5,0,-3,90
            """)
        #expect(schedule.value(at: 0) == QuadSetpoint(thrust: 0.5))
        #expect(schedule.value(at: 1.99).pitch == 0)
        let step = schedule.value(at: 2)
        #expect(step.thrust == 0.55 && abs(step.pitch - 5 * .pi / 180) < 1e-6)
        let last = schedule.value(at: 100)
        #expect(abs(last.roll + 3 * .pi / 180) < 1e-6 && abs(last.heading - .pi / 2) < 1e-6)
    }

    @Test(arguments: [
        ("t,throttle\n0,0.5\n", "s.csv:1:1: setpoint header must be time_s,throttle,pitch_deg,roll_deg,heading_deg"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,0,0\n", "s.csv:2:9: expected 5 fields, got 4"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,0,0,0,1\n", "s.csv:2:13: expected 5 fields, got 6"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,x,0,0\n", "s.csv:2:7: `x` is not a finite number"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n1,0.5,0,0,0\n1,0.5,0,0,0\n", "s.csv:3:1: times must rise (1.0 after 1.0)"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,1.5,0,0,0\n", "s.csv:2:3: throttle 1.5 is outside 0…1"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,70,0,0\n", "s.csv:2:7: pitch 70.0° is beyond ±60.0°"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,0, -61,0\n", "s.csv:2:10: roll -61.0° is beyond ±60.0°"),
        ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n", "s.csv:2:1: no setpoint rows"),
        ("# nothing\n", "s.csv:2:1: no setpoint header"),
    ])
    func badFilesAreRefusedWithTheirPosition(text: String, message: String) {
        do {
            _ = try SetpointSchedule(path: "s.csv", text: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    /// One reader for both schedules: comments between rows, spaces around fields and a
    /// spreadsheet's CR LF line breaks read the same in either.
    @Test func commentsSpacesAndCRLFAreRead() throws {
        var schedule = try SetpointSchedule(path: "s.csv", text: "time_s,throttle,pitch_deg,roll_deg,heading_deg\r\n0,0.5,0,0,0\r\n# then pitch\r\n\r\n2, 0.5 ,\t5,0,0\r\n")
        #expect(schedule.value(at: 1) == QuadSetpoint(thrust: 0.5))
        #expect(abs(schedule.value(at: 2).pitch - 5 * .pi / 180) < 1e-6)
        var drive = try DriveSchedule(path: "d.csv", text: "time_s,speed_m_s,turn_rate_deg_s\r\n0,0,0\r\n# go\r\n1, 0.5 ,0\r\n")
        #expect(drive.count == 2 && drive.value(at: 1).speed == 0.5)
    }

    @Test func aQuadFollowsASetpointFileInSimulation() throws {
        // The quad on its stand pitches to 5° when the file says so.
        let directory = ClosedLoopTests.repository + "/configs"
        var text = try PoiseConfiguration.readText(path: directory + "/sim-quad-x.yaml")
        let file = FileManager.default.temporaryDirectory.appending(path: "poise-setpoints-\(getpid()).csv").path
        try "time_s,throttle,pitch_deg,roll_deg,heading_deg\n0,0.5,0,0,0\n6,0.5,5,0,0\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        text = text.replacingOccurrences(of: "    throttle: 0.5\n", with: "    throttle: 0.5\n    setpoint_file: \(file)\n")
            .replacingOccurrences(of: "gust_torque: 0.015", with: "gust_torque: 0")
        let configuration = try PoiseConfiguration.parse(text: text, file: "quad.yaml")
        var options = RunOptions(signals: StopSignals())
        options.virtualDuration = 10
        options.quiet = true
        let report = try #require(try LoopRunner.run(configuration, options: options).report)
        let before = report.time.indices.filter { report.time[$0] > 5 && report.time[$0] < 6 }.map { report.truePitch[$0] }
        let after = report.time.indices.filter { report.time[$0] > 8 }.map { report.truePitch[$0] }
        #expect(before.allSatisfy { abs($0) < 1.5 }, "\(before.max() ?? 0)")
        #expect(after.allSatisfy { abs($0 - 5) < 1.5 }, "\(after.min() ?? 0)…\(after.max() ?? 0)")
    }
}

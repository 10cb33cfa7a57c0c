import PoiseControl
import PoiseReplay
import PoiseSchedules
import PoiseTraces
import PropertyBased
import Testing

/// `controller.balance.setpoint_file`: the drive script's rows, held between their times,
/// and its errors with FILE:LINE:COLUMN.
@Suite struct DriveScheduleTests {
    @Test func rowsAreHeldBetweenTheirTimes() throws {
        var schedule = try DriveSchedule(path: "d.csv", text: """
            # forward, then a left turn
            time_s,speed_m_s,turn_rate_deg_s
            0,0,0
            2, 0.5 ,0

            4,0.5,45
            """)
        #expect(schedule.count == 3)
        #expect(schedule.value(at: -1) == DriveSetpoint())
        #expect(schedule.value(at: 1.99) == DriveSetpoint())
        #expect(schedule.value(at: 2) == DriveSetpoint(speed: 0.5))
        let turning = schedule.value(at: 100)
        #expect(turning.speed == 0.5 && abs(turning.turnRate - .pi / 4) < 1e-6)
    }

    @Test(arguments: [
        ("t,speed\n0,0\n", "d.csv:1:1: drive script header must be time_s,speed_m_s,turn_rate_deg_s"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0,0.5\n", "d.csv:2:3: expected 3 fields, got 2"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0,0.5,0,1\n", "d.csv:2:9: expected 3 fields, got 4"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0, x,0\n", "d.csv:2:4: `x` is not a finite number"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0,0,nan\n", "d.csv:2:5: `nan` is not a finite number"),
        ("time_s,speed_m_s,turn_rate_deg_s\n1,0,0\n1,0,0\n", "d.csv:3:1: times must rise (1.0 after 1.0)"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0,6,0\n", "d.csv:2:3: speed 6.0 m/s is beyond ±5.0 m/s"),
        ("time_s,speed_m_s,turn_rate_deg_s\n0,0,-800\n", "d.csv:2:5: turn rate -800.0 °/s is beyond ±720.0 °/s"),
        ("time_s,speed_m_s,turn_rate_deg_s\n", "d.csv:2:1: no drive setpoint rows"),
        ("", "d.csv:1:1: no drive script header"),
    ])
    func badFilesAreRefusedWithTheirPosition(text: String, message: String) {
        do {
            _ = try DriveSchedule(path: "d.csv", text: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func theDefaultScriptIsBuiltIn() throws {
        var schedule = try #require(DriveSchedule.preset(named: "default"))
        #expect(schedule.value(at: 0) == DriveSetpoint())
        #expect(schedule.value(at: 5).speed == 0.5)
        #expect(abs(schedule.value(at: 8).turnRate - .pi / 4) < 1e-6)
        #expect(schedule.value(at: 30) == DriveSetpoint())
        #expect(DriveSchedule.preset(named: "nope") == nil)
    }

    /// Any rows written as the format says read back as written, looked up at any time.
    @Test func writtenRowsReadBack() async {
        let row = zip(Gen.double(in: 0.001...10), Gen.double(in: -5...5), Gen.double(in: -720...720))
        await propertyCheck(count: 200, input: row.array(of: 1...20)) { rows in
            var time = 0.0
            var text = "time_s,speed_m_s,turn_rate_deg_s\n"
            var expected: [(Double, DriveSetpoint)] = []
            for (step, speed, turn) in rows {
                time += step
                text += "\(time),\(speed),\(turn)\n"
                expected.append((time, DriveSetpoint(speed: Float(speed), turnRate: Float(turn * .pi / 180))))
            }
            do {
                var schedule = try DriveSchedule(path: "p.csv", text: text)
                for (t, setpoint) in expected {
                    #expect(schedule.value(at: t) == setpoint)
                }
            } catch {
                Issue.record("refused \(text): \(error)")
            }
        }
    }

    /// Garbage never crashes the parser, and its error points inside the text.
    @Test func garbageIsRefusedWithAPositionInsideTheText() async {
        let alphabet = Array("0123456789.,-+ex\n #abc")
        await propertyCheck(count: 300, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...60)) { indices in
            let body = String(indices.map { alphabet[$0] })
            let text = "time_s,speed_m_s,turn_rate_deg_s\n" + body
            do {
                _ = try DriveSchedule(path: "g.csv", text: text)
            } catch let error as TraceError {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(error.line >= 1 && error.line <= lines.count, "\(error)")
                #expect(error.column >= 1 && error.column <= lines[error.line - 1].count + 1, "\(error)")
            } catch {
                Issue.record("not a positioned error: \(error)")
            }
        }
    }
}

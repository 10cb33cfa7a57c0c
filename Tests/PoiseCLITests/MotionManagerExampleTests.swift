import Foundation
import Testing

/// `motion-manager-example`, the library's sample program, run as a user runs it.
@Suite struct MotionManagerExampleTests {
    let example = builtProgram("motion-manager-example")

    @Test func aMissingOrUnusableConfigIsAClearError() throws {
        try #require(FileManager.default.isExecutableFile(atPath: example), "build it first: swift build")
        let directory = try temporaryDirectory()
        let missing = directory.appending(path: "none.yaml").path
        let run = try runBuilt(example, [missing])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("motion-manager-example: \(missing)"), "\(run.error)")
        #expect(!run.error.contains("Fatal error"))
        let linux = directory.appending(path: "linux.yaml").path
        try "board:\n  kind: linux\n  i2c_bus: /dev/i2c-99\n".write(toFile: linux, atomically: true, encoding: .utf8)
        let board = try runBuilt(example, [linux, "1"])
        #expect(board.status == 1)
        #expect(board.error.hasPrefix("motion-manager-example: "), "\(board.error)")
        #expect(board.error.contains("/dev/i2c-99"), "\(board.error)")
        #expect(!board.error.contains("Fatal error"))
        let seconds = try runBuilt(example, [repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path, "soon"])
        #expect(seconds.status == 1 && seconds.error == "motion-manager-example: 'soon' is not a positive number of seconds\n")
    }

    @Test func itPrintsTimesAndAnglesAsDecimals() throws {
        try #require(FileManager.default.isExecutableFile(atPath: example), "build it first: swift build")
        let run = try runBuilt(example, [repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path, "1"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.text.split(separator: "\n")
        #expect(lines.first == "time s   pitch°   roll°    yaw°  state")
        let rows = lines.dropFirst().dropLast()
        #expect(!rows.isEmpty)
        for row in rows {
            let cells = row.split(separator: " ")
            #expect(cells.count == 5, "\(row)")
            // t with two decimals, each angle with one: never 0.24900000000000003 nor ×10 integers.
            #expect(cells.first.map { $0.split(separator: ".").last?.count == 2 } == true, "\(row)")
            for angle in cells.dropFirst().prefix(3) { #expect(angle.split(separator: ".").last?.count == 1, "\(row)") }
        }
        #expect(lines.last?.hasPrefix("stopped: ") == true)
    }
}

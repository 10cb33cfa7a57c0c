import Foundation
import Testing

// `poise gamepad` and a configured gamepad in `poise run`, where there is none: what a user
// reads. (The reader itself: PoiseLinuxTests' GamepadReaderSyscallTests and VirtualGamepadTests.)

@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct GamepadCommandTests {
    func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["event10", "event2", "mouse0"] {
            FileManager.default.createFile(atPath: directory.appending(path: name).path, contents: Data())
        }
        return directory
    }

    @Test func theListNamesEveryEventDeviceInOrderAndWhyOneCannotBeRead() throws {
        let input = try directory()
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try poise(["gamepad", "--directory", input.path])
        #expect(run.status == 0)
        #expect(run.text == """
            \(input.path)/event2  cannot read: \(input.path)/event2 is not an input event device (ENOTTY to EVIOCGNAME)
            \(input.path)/event10  cannot read: \(input.path)/event10 is not an input event device (ENOTTY to EVIOCGNAME)

            """)
    }

    @Test func aNameNothingHasIsAnErrorThatSaysWhereToLook() throws {
        let input = try directory()
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try poise(["gamepad", "--name", "Xbox Wireless Controller", "--directory", input.path])
        #expect(run.status == 1)
        #expect(run.error == "poise: gamepad: no input device named \"Xbox Wireless Controller\" "
            + "(no input devices could be read; `poise gamepad` says why)\n")
    }

    @Test func runRefusesToStartWithoutItsGamepad() throws {
        let config = FileManager.default.temporaryDirectory.appending(path: "poise-gamepad-\(UUID().uuidString).yaml")
        try "input:\n  gamepad:\n    device: /nonexistent/event3\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try poise(["run", "--config", config.path, "--duration", "1", "--quiet"])
        #expect(run.status == 1)
        #expect(run.error.contains("gamepad: /nonexistent/event3 does not exist (is the gamepad connected? `poise gamepad` lists the input devices)"))
    }
}

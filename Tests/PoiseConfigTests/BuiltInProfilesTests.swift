import Foundation
import Testing
@testable import PoiseConfig

/// The shipped board profiles built into the program (Sources/PoiseConfig/BuiltInProfiles.swift,
/// written by scripts/generate-profiles) are exactly boards/, and files on disk come first.
@Suite struct BuiltInProfilesTests {
    let boards = repositoryRoot.appending(path: "boards")

    /// Every profile in boards/ is built in with the file's exact text, and nothing else is.
    @Test func theBuiltInProfilesAreBoardsAsTheyAre() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: boards.path)
            .filter { $0.hasSuffix(".yaml") && $0 != "poise.example.yaml" }
        let names = files.map { String($0.dropLast(".yaml".count)) }
        #expect(Set(names) == Set(BuiltInProfiles.texts.keys),
                "boards/ and the built-in profiles differ: run scripts/generate-profiles")
        for name in names {
            let text = try String(contentsOf: boards.appending(path: "\(name).yaml"), encoding: .utf8)
            #expect(BuiltInProfiles.texts[name] == text, "boards/\(name).yaml changed: run scripts/generate-profiles")
        }
    }

    /// The checked-in Swift file is what the script writes today.
    @Test func theGeneratedFileIsUpToDate() throws {
        let process = Process()
        process.executableURL = repositoryRoot.appending(path: "scripts/generate-profiles")
        process.arguments = ["-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let generated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let checkedIn = try Data(contentsOf: repositoryRoot.appending(path: "Sources/PoiseConfig/BuiltInProfiles.swift"))
        #expect(generated == checkedIn, "Sources/PoiseConfig/BuiltInProfiles.swift is stale: run scripts/generate-profiles")
    }

    /// A config in a folder with no profiles gets the built-in one; a file next to it wins.
    @Test func aFileOnDiskWinsOverTheBuiltInProfile() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "poise-builtin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appending(path: "robot.yaml")
        try "board:\n  profile: raspberry-pi-5\n".write(to: config, atomically: true, encoding: .utf8)
        let builtIn = try PoiseConfiguration.load(path: config.path)
        #expect(builtIn.board.gpioChip == "pinctrl-rp1")
        #expect(builtIn.loop.rateHz == 1000)
        try "board:\n  gpio_chip: gpiochip4\nloop:\n  rate_hz: 250\n"
            .write(to: folder.appending(path: "raspberry-pi-5.yaml"), atomically: true, encoding: .utf8)
        let onDisk = try PoiseConfiguration.load(path: config.path)
        #expect(onDisk.board.gpioChip == "gpiochip4")
        #expect(onDisk.loop.rateHz == 250)
    }

    /// A name that is nowhere: the error is at the line naming it, lists the built-in
    /// profiles and says how to fix it.
    @Test func aMissingProfileSaysHowToFixIt() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "poise-builtin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appending(path: "robot.yaml")
        try "# my robot\nboard:\n  profile: raspberry-pi-6\n".write(to: config, atomically: true, encoding: .utf8)
        do {
            _ = try PoiseConfiguration.load(path: config.path)
            Issue.record("accepted a missing profile")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("\(config.path):3: board.profile: no profile `raspberry-pi-6`"), "\(text)")
            #expect(text.contains("Fix: name a built-in profile, put raspberry-pi-6.yaml next to robot.yaml"), "\(text)")
            #expect(text.contains("(allowed: built in: raspberry-pi-3, raspberry-pi-4, raspberry-pi-5"), "\(text)")
        }
    }
}

import Foundation
import Testing
@testable import PoiseConfig

/// `board.profile`: a profile's values become the defaults of the file that names it.
@Suite struct ProfileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "poise-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: "boards"), withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appending(path: name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func fileWinsOverProfileAndProfileOverDefaults() throws {
        _ = try write("board:\n  gpio_chip: pinctrl-rp1\n  pwm_chip: 2\nloop:\n  rate_hz: 1000\n", "boards/pi.yaml")
        let path = try write("board:\n  profile: pi\nloop:\n  rate_hz: 400\n", "robot.yaml")
        let configuration = try PoiseConfiguration.load(path: path)
        #expect(configuration.board.gpioChip == "pinctrl-rp1")
        #expect(configuration.board.pwmChip == 2)
        #expect(configuration.loop.rateHz == 400)
        #expect(configuration.board.i2cBus == "/dev/i2c-1")  // neither sets it: the schema default
    }

    @Test func profileErrorsNameTheProfileFile() throws {
        let profile = try write("loop:\n  rate_hz: 5000\n", "boards/bad.yaml")
        let path = try write("board:\n  profile: bad\n", "robot.yaml")
        #expect(throws: ConfigErrors.self) { try PoiseConfiguration.load(path: path) }
        do { _ = try PoiseConfiguration.load(path: path) } catch {
            #expect(error.description.hasPrefix("\(profile):2: loop.rate_hz"))
        }
    }

    @Test func missingAndNestedProfilesAreRefused() throws {
        let missing = try write("board:\n  profile: nowhere\n", "a.yaml")
        do { _ = try PoiseConfiguration.load(path: missing); Issue.record("accepted a missing profile") } catch {
            #expect(error.description.contains("no profile `nowhere`"))
        }
        _ = try write("board:\n  profile: other\n", "boards/nested.yaml")
        let nested = try write("board:\n  profile: nested\n", "b.yaml")
        do { _ = try PoiseConfiguration.load(path: nested); Issue.record("accepted a nested profile") } catch {
            #expect(error.description.contains("cannot name another profile"))
        }
    }

    @Test func shippedProfilesLoad() throws {
        let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "boards")
        for name in ["raspberry-pi-3", "raspberry-pi-4", "raspberry-pi-5", "raspberry-pi-zero-2w", "sim"] {
            let path = try write("board:\n  profile: \(boards.path)/\(name).yaml\n", "\(name)-user.yaml")
            let configuration = try PoiseConfiguration.load(path: path)
            #expect(configuration.loop.rateHz >= 100, "\(name)")
            if name == "raspberry-pi-5" { #expect(configuration.board.gpioChip == "pinctrl-rp1") }
        }
    }
}

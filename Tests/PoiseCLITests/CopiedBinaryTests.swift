import Foundation
import Testing

/// `poise` copied on its own, as docs/deploy.md's `scp … poise pi@robot.local:` leaves it:
/// no repository, no boards/ beside it; the shipped real-board configs still check, from the
/// profiles built into the binary.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct CopiedBinaryTests {
    @Test func aCopiedBinaryChecksTheShippedBoardConfigs() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let copy = home.appending(path: "poise")
        // Copied by cp(1), not in this process: a copy written here leaves a writable descriptor
        // that a child forked meanwhile by a parallel test inherits, and exec then fails with
        // "Text file busy".
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = [poisePath, copy.path]
        try cp.run()
        cp.waitUntilExit()
        #expect(cp.terminationStatus == 0)
        // Every config in configs/ that names a board profile, copied beside the binary.
        let configs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appending(path: "configs").path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        var checked: [String] = []
        for name in configs {
            let text = try String(contentsOf: repositoryRoot.appending(path: "configs/\(name)"), encoding: .utf8)
            guard text.contains("\n  profile: ") else { continue }
            try text.write(to: home.appending(path: name), atomically: true, encoding: .utf8)
            let run = try runBuilt(copy.path, ["check", home.appending(path: name).path])
            #expect(run.status == 0, "\(name): \(run.error)")
            #expect(run.text.contains("ok"), "\(name): \(run.text)")
            checked.append(name)
        }
        #expect(checked.contains("attitude-logger.yaml") && checked.contains("balancing-robot-pi.yaml"), "\(checked)")

        // A profile file beside the config still wins: here a broken one.
        try "board:\n  pwm_chip: many\n".write(to: home.appending(path: "raspberry-pi-4.yaml"), atomically: true, encoding: .utf8)
        let overridden = try runBuilt(copy.path, ["check", home.appending(path: "attitude-logger.yaml").path])
        #expect(overridden.status != 0)
        #expect(overridden.error.contains(home.appending(path: "raspberry-pi-4.yaml").path + ":2: board.pwm_chip"), "\(overridden.error)")

        // A name that is nowhere says how to fix it.
        let bad = home.appending(path: "bad.yaml")
        try "board:\n  profile: raspberry-pi-6\n".write(to: bad, atomically: true, encoding: .utf8)
        let missing = try runBuilt(copy.path, ["check", bad.path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("bad.yaml:2: board.profile: no profile `raspberry-pi-6`"), "\(missing.error)")
        #expect(missing.error.contains("Fix: name a built-in profile"), "\(missing.error)")
    }
}

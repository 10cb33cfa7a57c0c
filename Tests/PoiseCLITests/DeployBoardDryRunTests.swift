import Foundation
import Testing

/// `scripts/deploy-board CONFIG HOST --dry-run` builds, copies and installs nothing and says
/// every step: run from a copy of the script with PATH leading to stand-ins for everything it
/// could build, copy or change a system with (each records its call: any call is a failure).
struct DeployBoardDryRunTests {
    static let standIns = ["ssh", "scp", "sudo", "swift", "swiftc", "mkdir", "install", "systemctl", "udevadm",
                           "aarch64-linux-gnu-gcc", "gcc"]

    @Test func dryRunDoesNothingAndSaysEachStep() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appending(path: "scripts"), tools = root.appending(path: "tools")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appending(path: "scripts/deploy-board"),
                                         to: scripts.appending(path: "deploy-board"))
        let calls = root.appending(path: "calls").path
        try executable("#!/bin/sh\necho \"build-board $*\" >> \"\(calls)\"\n", at: scripts.appending(path: "build-board"))
        for name in Self.standIns {
            try executable("#!/bin/sh\necho \"\(name) $*\" >> \"\(calls)\"\n", at: tools.appending(path: name))
        }
        try "board:\n  kind: linux\n".write(to: root.appending(path: "robot.yaml"), atomically: true, encoding: .utf8)
        let (status, text, errorText) = try runScript(URL(fileURLWithPath: "/bin/bash"),
                                                      [scripts.appending(path: "deploy-board").path, root.appending(path: "robot.yaml").path,
                                                       "pi@robot.local", "--dry-run"], toolsFirst: tools)
        #expect(status == 0, "\(text)\(errorText)")
        let recorded = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        #expect(recorded.isEmpty, "--dry-run ran: \(recorded)")
        #expect(text.contains("would run: scripts/build-board aarch64"), "\(text)")
        #expect(text.contains("compile \(root.appending(path: "robot.yaml").path) -o .build-embedded/deploy/poise.pcfg"), "\(text)")
        #expect(text.contains("would run: scp .build-embedded/poise-board.stripped"), "\(text)")
        #expect(text.contains("install -D -m 0755 /tmp/poise-deploy/poise-board.stripped /usr/local/bin/poise-board"), "\(text)")
        #expect(text.contains("systemctl restart poise"), "\(text)")
        #expect(text.contains("dry run: nothing was built, copied or installed"), "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("+ ") }, "\(text)")
    }

    /// The unit it installs is the native one with poise-board's commands: the lines it rewrites
    /// are still in scripts/poise.service.
    @Test func theUnitsLinesItRewritesExist() throws {
        let unit = try String(contentsOf: repositoryRoot.appending(path: "scripts/poise.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/poise run --config /etc/poise/poise.yaml"))
        #expect(unit.contains("ExecStopPost=/usr/local/bin/poise safe --config /etc/poise/poise.yaml"))
        #expect(unit.contains("StateDirectory=poise") && unit.contains("ProtectSystem=strict"))
    }

    func executable(_ text: String, at url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}

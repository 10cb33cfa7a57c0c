import Foundation
import Testing

/// `scripts/install-service --dry-run` does nothing and says what it would do. It runs from a
/// copy of the repository's scripts with PATH leading to stand-ins for every program it could
/// change the system with (apt-get, sudo, install, systemctl, …) and a stand-in
/// scripts/install-deps: each records its call, so any call at all is a failure.
struct InstallServiceDryRunTests {
    static let standIns = ["apt-get", "apt", "sudo", "install", "systemctl", "swift", "mkdir", "cp", "udevadm",
                           "groupadd", "useradd", "poise", "curl", "dpkg"]

    @Test func dryRunPerformsNothingAndSaysWhatItWouldDo() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appending(path: "scripts"), tools = root.appending(path: "tools")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appending(path: "scripts/install-service"),
                                         to: scripts.appending(path: "install-service"))
        let calls = root.appending(path: "calls").path
        try executable("#!/bin/sh\necho \"install-deps $*\" >> \"\(calls)\"\n", at: scripts.appending(path: "install-deps"))
        for name in Self.standIns {
            try executable("#!/bin/sh\necho \"\(name) $*\" >> \"\(calls)\"\n", at: tools.appending(path: name))
        }
        let (status, text, errorText) = try runScript(URL(fileURLWithPath: "/bin/bash"),
                                                      [scripts.appending(path: "install-service").path, "--dry-run"], toolsFirst: tools)
        #expect(status == 0, "\(text)\(errorText)")
        let recorded = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        #expect(recorded.isEmpty, "--dry-run ran: \(recorded)")
        // What it would do, in the would-form; nothing claimed as done.
        #expect(text.contains("would run: env POISE_STATIC=1 scripts/install-deps"), "\(text)")
        #expect(text.contains("would run: ") && text.contains("systemctl enable poise"), "\(text)")
        if !FileManager.default.fileExists(atPath: "/etc/poise/poise.yaml") {
            #expect(text.contains("would write /etc/poise/poise.yaml"), "\(text)")
        }
        #expect(!text.contains("wrote "), "\(text)")
        #expect(!text.contains("poise: installed"), "\(text)")
        #expect(text.contains("dry run: nothing was installed"), "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("+ ") }, "\(text)")
    }

    func executable(_ text: String, at url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}

import Foundation
import Testing

/// `scripts/kernel-test` run alone builds what its guest runs (the debug `poise`) before
/// anything else, and a failed build stops it there with one clear line, instead of a guest
/// test failing minutes later for a missing program.
@Suite struct KernelTestBuildTests {
    /// A copy of the script in a folder of its own (it works from its parent folder), with a
    /// stand-in `swift` first on PATH that records its arguments and exits with `status`.
    func run(swiftStatus status: Int32, makeOutputs: Bool) throws -> (status: Int32, error: String, calls: String) {
        let directory = try temporaryDirectory()
        let scripts = directory.appending(path: "scripts"), tools = directory.appending(path: "tools")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let script = scripts.appending(path: "kernel-test")
        try FileManager.default.copyItem(at: repositoryRoot.appending(path: "scripts/kernel-test"), to: script)
        let calls = directory.appending(path: "calls.txt").path
        let make = makeOutputs ? "mkdir -p .build/debug; printf '#!/bin/sh\\n' > .build/debug/poise; chmod +x .build/debug/poise\n" : ""
        let swift = tools.appending(path: "swift")
        try "#!/bin/sh\necho \"swift $*\" >> \(calls)\n\(make)echo 'error: stand-in build output'\nexit \(status)\n"
            .write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let run = try runScript(script, [], toolsFirst: tools)
        let recorded = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        // Nothing past the build: no VM cache made, no package installed.
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: ".build-vm").path))
        return (run.status, run.error, recorded)
    }

    @Test func aFailedBuildStopsItBeforeBootingAndSaysWhy() throws {
        let run = try run(swiftStatus: 1, makeOutputs: false)
        #expect(run.calls == "swift build --product poise\n")
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("kernel-test: building what the guest runs: swift build --product poise\n"), "\(run.error)")
        #expect(run.error.contains("error: stand-in build output"), "\(run.error)")
        #expect(run.error.hasSuffix("kernel-test: FAILED before booting: swift build --product poise did not build .build/debug/poise\n"), "\(run.error)")
    }

    @Test func aBuildWithoutThePoiseProgramStopsItToo() throws {
        let run = try run(swiftStatus: 0, makeOutputs: false)
        #expect(run.calls == "swift build --product poise\n")
        #expect(run.status == 1)
        #expect(run.error.contains("FAILED before booting"), "\(run.error)")
    }
}

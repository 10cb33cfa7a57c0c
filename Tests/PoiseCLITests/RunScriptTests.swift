import Foundation
import Testing

/// README's install: `scripts/run` builds both programs in one build, so `poise view` works
/// right after it. The script runs as a user runs it, from a copy of the repository's
/// scripts/ with the toolchain replaced: a stand-in `swift` on PATH logs how it is called and
/// "builds" a product by copying the real debug binary into the copy's .build (a release
/// build here would take many minutes); scripts/install-deps is a no-op.
@Suite(.enabled(if: poiseIsBuilt && FileManager.default.isExecutableFile(atPath: builtProgram("poise-view")), poiseBuiltNote))
struct RunScriptTests {
    @Test func afterScriptsRunPoiseViewWorks() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appending(path: "scripts"), tools = root.appending(path: "tools")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appending(path: "scripts/run"), to: scripts.appending(path: "run"))
        try executable("#!/bin/sh\nexit 0\n", at: scripts.appending(path: "install-deps"))
        let debug = repositoryRoot.appending(path: ".build/debug").path
        // `swift build -c CONFIG [--product P] [--show-bin-path]`, products copied from the debug build.
        try executable("""
            #!/usr/bin/env bash
            set -eu
            echo "$*" >> "\(root.path)/swift-calls"
            [ "$1" = build ] || exit 2
            shift
            config=debug; products=""; show=""
            while [ $# -gt 0 ]; do
              case "$1" in
                -c) config=$2; shift ;;
                --product) products="$products $2"; shift ;;
                --show-bin-path) show=1 ;;
              esac
              shift
            done
            bin="$PWD/.build/$config"
            if [ -n "$show" ]; then echo "$bin"; exit 0; fi
            mkdir -p "$bin"
            for p in ${products:-poise poise-view}; do cp "\(debug)/$p" "$bin/$p"; done
            """, at: tools.appending(path: "swift"))
        let (status, text, errorText) = try runScript(scripts.appending(path: "run"), ["view", "--help"], toolsFirst: tools)
        #expect(status == 0, "\(errorText)")
        #expect(text.contains("USAGE: poise view"), "\(text)\(errorText)")
        // Built in one go: one build, in release, of both programs.
        let calls = try String(contentsOf: root.appending(path: "swift-calls"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.contains("--show-bin-path") }
        #expect(calls == ["build -c release"], "\(calls)")
        for program in ["poise", "poise-view"] {
            #expect(FileManager.default.isExecutableFile(atPath: root.appending(path: ".build/release/\(program)").path))
        }
    }

    /// README's install section says what `scripts/run` builds and how `poise view` finds its program.
    @Test func theReadmeInstallSectionNamesBothPrograms() throws {
        let readme = try String(contentsOf: repositoryRoot.appending(path: "README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Install and the two commands"))
        let after = readme[start.upperBound...]
        let install = String(after[..<(after.range(of: "\n## ")?.lowerBound ?? after.endIndex)])
            .replacingOccurrences(of: "\n", with: " ")
        #expect(install.contains("`scripts/run` builds both programs in one release build"))
        #expect(install.contains("`.build/release/poise-view`"))
    }

    func executable(_ text: String, at url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}

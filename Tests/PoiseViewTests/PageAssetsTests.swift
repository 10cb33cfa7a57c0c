import Foundation
import Testing
@testable import PoiseView

let nodePath = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite struct PageAssetsTests {
    @Test func pageLoadsOnlyItsOwnScript() {
        // Offline on the board's network: nothing from a CDN or any other host.
        #expect(PageAssets.html.contains("<script src=\"app.js\"></script>"))
        #expect(!PageAssets.html.contains("http://") && !PageAssets.html.contains("https://"))
        #expect(!PageAssets.script.contains("https://") && !PageAssets.script.contains("import "))
        #expect(PageAssets.script.contains("window.poiseDebug"))
    }

    @Test(.enabled(if: nodePath != nil, "needs node for the JavaScript syntax check (the browser tests run the script in Chromium)"))
    func scriptIsValidJavaScript() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "poise-view-\(getpid()).js")
        try PageAssets.script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(runProcess(nodePath!, ["--check", file.path], timeout: 60).status == 0)
    }
}

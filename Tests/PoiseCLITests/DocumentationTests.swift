import Foundation
import Testing

/// The README and docs/ stay a guide a newcomer can follow: every relative link resolves
/// (to a file, and to a heading when it names one), every document in docs/ is reachable from
/// the README, no text cites tracker numbers, and every allowed skip reason is one a test
/// or script can still give.
@Suite struct DocumentationTests {
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: repositoryRoot.appending(path: relativePath), encoding: .utf8)
    }

    static let documents: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appending(path: "docs").path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// Lines outside fenced code blocks.
    static func prose(_ markdown: String) -> [Substring] {
        var inFence = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }
    }

    /// The targets of `[text](target)` links that are not web addresses.
    static func relativeLinks(_ markdown: String) -> [String] {
        let link = /\]\(([^)\s]+)\)/
        return prose(markdown).flatMap { line in line.matches(of: link).map { String($0.output.1) } }
            .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchors(_ markdown: String) -> Set<String> {
        Set(prose(markdown).filter { $0.hasPrefix("#") }.map { line in
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
                return nil
            })
        })
    }

    @Test(arguments: documents)
    func everyRelativeLinkResolves(_ document: String) throws {
        let folder = document.contains("/") ? String(document[...document.lastIndex(of: "/")!]) : ""
        for target in Self.relativeLinks(try Self.text(document)) {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? document : folder + parts[0]
            let url = repositoryRoot.appending(path: file).standardized
            #expect(FileManager.default.fileExists(atPath: url.path), "\(document): \(target) does not exist")
            if parts.count == 2, file.hasSuffix(".md"), let linked = try? String(contentsOf: url, encoding: .utf8) {
                #expect(Self.anchors(linked).contains(String(parts[1])), "\(document): no heading for \(target)")
            }
        }
    }

    @Test func everyDocumentIsLinkedFromTheReadme() throws {
        let links = Set(Self.relativeLinks(try Self.text("README.md")).map { String($0.prefix { $0 != "#" }) })
        for document in Self.documents.dropFirst() {
            #expect(links.contains(document), "README.md does not link \(document)")
        }
    }

    /// Docs, scripts and the comments in code say what a thing is, not which tracker entry
    /// asked for it.
    @Test func noTextCitesTrackerNumbers() throws {
        var files = Self.documents
        for folder in ["scripts", "Sources", "Tests", "Fuzz/Sources", "Benchmarks/Benchmarks", "Examples"] {
            let enumerator = FileManager.default.enumerator(atPath: repositoryRoot.appending(path: folder).path)
            while let name = enumerator?.nextObject() as? String {
                if [".swift", ".sh", ".py", ".md", ".txt"].contains(where: name.hasSuffix) || !name.contains(".") {
                    files.append(folder + "/" + name)
                }
            }
        }
        // The word issue and a number, or a hash and one to four digits — but not a colour
        // in quotes, an HTML entity, a URL fragment or the shell's `$#`.
        let citation = /[Ii]ssue #?\d+|(^|[^\w&"'\/$])#\d{1,4}\b/
        var checked = 0
        for file in files {
            guard let text = try? Self.text(file) else { continue }
            checked += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(citation) {
                Issue.record("\(file):\(number + 1): cites a tracker number: \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(checked > 200, "only \(checked) files read")
    }

    /// An allowed skip whose reason no test or script gives any more is a stale entry.
    @Test func everyAllowedSkipReasonIsStillGiven() throws {
        let allowed = try Self.text("scripts/allowed-skips.txt").split(separator: "\n")
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix(" ") && !$0.hasPrefix("\t") }
        #expect(!allowed.isEmpty)
        var sources = try Self.text("scripts/kernel-test")
        let enumerator = FileManager.default.enumerator(atPath: repositoryRoot.appending(path: "Tests").path)
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".swift") { sources += try Self.text("Tests/" + name) }
        }
        for entry in allowed {
            var reason = String(entry)
            if reason.hasPrefix("kernel tests: ") { reason = "SKIPPED: " + reason.dropFirst("kernel tests: ".count) }
            if reason.hasSuffix("*") { reason.removeLast() }
            #expect(sources.contains(reason), "scripts/allowed-skips.txt: no test or script gives '\(entry)'")
        }
    }
}

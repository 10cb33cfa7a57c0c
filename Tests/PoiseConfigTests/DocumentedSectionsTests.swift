import Foundation
import PoiseConfig
import Testing

/// docs/config.md names the sections the schema has, and counts them right.
@Test func theConfigGuideNamesEverySection() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let guide = try String(contentsOf: repository.appending(path: "docs/config.md"), encoding: .utf8)
    var sections: [String] = []
    for key in ConfigSchema.keys {
        let top = String(key.path.prefix { $0 != "." })
        if !sections.contains(top) { sections.append(top) }
    }
    let opening = try #require(guide.components(separatedBy: "\n\n").dropFirst().first)
    for section in sections { #expect(opening.contains("`\(section)`"), "docs/config.md does not name `\(section)`") }
    let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                 "thirteen", "fourteen", "fifteen"]
    #expect(opening.contains("with \(words[sections.count - 1]) sections"), "\(sections.count) sections: \(sections)")
}

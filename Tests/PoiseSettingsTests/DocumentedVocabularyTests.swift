import Foundation
import PoiseFusion
import PoiseReplay
import Testing

/// README's tables name every replay column group and every filter flag the code has.
struct DocumentedVocabularyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func readme() throws -> String {
        try String(contentsOf: repository.appending(path: "README.md"), encoding: .utf8)
    }

    @Test func everyReplayColumnGroupHasARow() throws {
        let readme = try Self.readme()
        for column in ReplayColumn.allCases {
            #expect(readme.contains("| `\(column.rawValue)` |"), "README's replay columns table has no `\(column.rawValue)` row")
        }
    }

    /// Every flag bit declared in PoiseFusion is in README's list, with its value.
    @Test func everyFilterFlagIsListed() throws {
        let readme = try Self.readme()
        let list = try #require(readme.components(separatedBy: "Status flags (`FilterFlags`):").dropFirst().first?
            .components(separatedBy: "\n\n").first)
        let source = try String(contentsOf: Self.repository.appending(path: "Sources/PoiseFusion/AttitudeFilter.swift"),
                                encoding: .utf8)
        let shifts = source.components(separatedBy: "FilterFlags(rawValue: 1 << ").dropFirst()
            .compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(shifts.count >= 7)
        for shift in shifts {
            let value = 1 << shift
            #expect(list.contains(" \(value) "), "README lists no filter flag \(value)")
            #expect(FilterFlags(rawValue: FilterFlags.RawValue(value)).rawValue == FilterFlags.RawValue(value))
        }
    }
}

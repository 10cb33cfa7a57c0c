import Foundation
@testable import PoiseRun
import Testing
import PoiseConfig
@testable import PoiseLoop

/// The ground station's parameter names: derived from the schema, 16 characters at most, no
/// two alike, and docs/telemetry.md prints the table the code derives.
struct ParameterTableTests {
    let table = ParameterTable()

    @Test func namesFitAndNeverCollide() {
        #expect(!table.entries.isEmpty)
        for entry in table.entries { #expect(entry.name.utf8.count <= 16, "\(entry.name) (\(entry.path)) is longer than 16") }
        let names = table.entries.map(\.name)
        #expect(Set(names).count == names.count, "colliding: \(Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys)")
        // Nor does a reloadable name equal the name the rule gives a restart-only key.
        let restartOnly = Set(ConfigSchema.keys.map(\.path).filter { ConfigSchema.key($0)?.reload == .restart }.map(ParameterTable.name(forKey:)))
        #expect(restartOnly.isDisjoint(with: names))
    }

    @Test func everyReloadableNumberIsAParameter() {
        // The table both programs share is the schema's, named by the rule.
        #expect(table.entries == ParameterTable.fromSchema())
        for key in ConfigSchema.keys where key.reload == .live {
            switch key.type {
            case .number, .integer, .boolean: #expect(table.index(ofPath: key.path) != nil, "\(key.path)")
            default: continue
            }
        }
        #expect(ParameterTable.name(forKey: "controller.quad.pitch_rate.kp") == "QUAD_PIT_RT_P")
        #expect(ParameterTable.name(forKey: "safety.max_tilt_deg") == "SAFE_MAX_TILT")
        #expect(ParameterTable.name(forKey: "controller.balance.yaw_rate.integral_limit") == "BAL_YAW_RT_IMAX")
    }

    @Test func docsPrintTheGeneratedTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appending(path: "docs/telemetry.md"), encoding: .utf8)
        #expect(docs.contains(table.markdownTable()),
                "regenerate the parameter table in docs/telemetry.md with `poise check --print-parameters`")
    }

    @Test func valuesConvertAsTheKeyTakesThem() {
        #expect((try? ParameterTable.configValue(1, for: "safety.auto_arm").get()) == .boolean(true))
        #expect((try? ParameterTable.configValue(0.5, for: "safety.auto_arm").get()) == nil)
        #expect((try? ParameterTable.configValue(12, for: "loop.overrun_limit").get()) == .integer(12))
        #expect((try? ParameterTable.configValue(.nan, for: "safety.max_tilt_deg").get()) == nil)
    }
}

import Foundation
import PoiseConfig
import Testing

/// `poise tune --save` and `calibrate --save` edit a section written on one line in flow
/// style in place, in that style, on every shipped simulated configuration.
@Suite struct FlowStyleEditingTests {
    @Test func aFlowSectionsValueIsReplacedInPlace() throws {
        let text = "controller:\n  kind: quad_x\n  quad:\n    pitch_rate: {kp: 0.2, ki: 0.2, kd: 0.004}   # tuned by hand\n"
        let edited = try ConfigEditor.setting([(path: "controller.quad.pitch_rate.kp", value: .number(0.31))], in: text, file: "q.yaml")
        #expect(edited == "controller:\n  kind: quad_x\n  quad:\n    pitch_rate: {kp: 0.31, ki: 0.2, kd: 0.004}   # tuned by hand\n")
    }

    @Test func aMissingKeyIsAddedToTheFlowMapping() throws {
        let text = "board: {kind: sim}\ncontroller:\n  kind: quad_x\n  quad:\n    roll_rate: { kp: 0.2 }\n"
        let edited = try ConfigEditor.setting([(path: "controller.quad.roll_rate.kd", value: .number(0.005)),
                                               (path: "board.pwm_chip", value: .integer(1))], in: text, file: "q.yaml")
        #expect(edited == "board: {kind: sim, pwm_chip: 1}\ncontroller:\n  kind: quad_x\n  quad:\n    roll_rate: { kp: 0.2, kd: 0.005 }\n")
    }

    @Test func aSectionSpreadOverLinesInFlowStyleIsStillRefused() {
        let text = "controller:\n  kind: quad_x\n  quad: {pitch_rate: {kp: 0.2,\n    ki: 0.2}}\n"
        #expect(throws: ConfigError.self) {
            _ = try ConfigEditor.setting([(path: "controller.quad.pitch_rate.kp", value: .number(0.3))], in: text, file: "q.yaml")
        }
    }

    /// Every gain `poise tune` writes, into every shipped simulated configuration.
    @Test(arguments: ["sim-balancing-robot", "sim-balancing-robot-drive", "sim-quad-x"])
    func everyShippedSimulatedConfigurationTakesTheTunedGains(name: String) throws {
        let path = repositoryRoot.appending(path: "configs/\(name).yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let quad = name.contains("quad")
        let keys = quad
            ? ["controller.quad.pitch_rate.kp", "controller.quad.pitch_rate.ki", "controller.quad.pitch_rate.kd",
               "controller.quad.pitch_rate.d_cutoff_hz", "controller.quad.roll_rate.kp", "controller.quad.yaw_rate.kp",
               "controller.quad.angle_gain"]
            : ["controller.balance.pitch.kp", "controller.balance.pitch.ki", "controller.balance.pitch.kd"]
        let values = keys.enumerated().map { (path: $1, value: ConfigValue.number(0.5 + Double($0) / 100)) }
        let edited = try ConfigEditor.setting(values, in: text, file: path)
        let table = try ConfigParser.parse(text: edited, file: path)
        for (path, value) in values { #expect(table[path] == value, "\(path)") }
        // Nothing else moved: the lines that are not the edited sections' are byte for byte the same.
        let removed = Set(text.split(separator: "\n")).subtracting(edited.split(separator: "\n"))
        #expect(removed.allSatisfy { $0.contains("_rate") || $0.contains("angle_gain") || $0.contains("kp") }, "\(removed)")
    }
}

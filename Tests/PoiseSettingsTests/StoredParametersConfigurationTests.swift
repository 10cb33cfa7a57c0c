import PoiseConfig
import PoiseFlightSettings
import PoiseSettings
import Testing

/// The stored parameters on the host (PoiseFlightSettings' one reader, PoiseSettings'
/// configuration side): a bad line is refused in the loader's words with its line, values are
/// the configuration's, and applied over a file they are checked as the file is.
struct StoredParametersConfigurationTests {
    static let file = "board:\n  kind: sim\ncontroller:\n  kind: balance\nsafety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 15\n"

    @Test func badLinesAreRefusedEachWithItsLine() throws {
        let text = """
        # stored
        controller.balance.pitch.kp: 31.5
        controller.balance.pitch.kp: 32
        safety.max_tilt_deg: 500
        loop.rate_hz: 500
        controller.kind: quad_x
        no colon here
        safety.arm_source_x: 1
        controller.balance.pitch.kd: fast  # was 0.5
        """
        let error = try #require(throws: ConfigErrors.self) { try StoredParameters(parsing: text, file: "/var/lib/poise/parameters.yaml") }
        #expect(error.description == """
        /var/lib/poise/parameters.yaml:3: controller.balance.pitch.kp: written twice
        /var/lib/poise/parameters.yaml:4: safety.max_tilt_deg: `500.0` is out of range (allowed: \(ConfigSchema.key("safety.max_tilt_deg")!.allowed!))
        /var/lib/poise/parameters.yaml:5: loop.rate_hz: not a parameter (only numbers and switches a reload may change are stored on the board)
        /var/lib/poise/parameters.yaml:6: controller.kind: not a parameter (only numbers and switches a reload may change are stored on the board)
        /var/lib/poise/parameters.yaml:7: expected `key: value` (a key's dotted path, a colon, its value)
        /var/lib/poise/parameters.yaml:8: safety.arm_source_x: unknown key
        /var/lib/poise/parameters.yaml:9: controller.balance.pitch.kd: expected \(ConfigSchema.key("controller.balance.pitch.kd")!.typeDescription), got `fast` (allowed: \(ConfigSchema.key("controller.balance.pitch.kd")!.allowed ?? ""))
        """)
        // Each a ConfigError with its parts, clipped as the loader clips them.
        #expect(error.errors.map(\.line) == [3, 4, 5, 6, 7, 8, 9])
        let long = String(repeating: "k", count: 300)
        let clipped = try #require(throws: ConfigErrors.self) { try StoredParameters(parsing: long + ": 1", file: "p.yaml") }
        #expect(clipped.errors.first?.key == ConfigError(file: "p.yaml", key: long, message: "unknown key").key)
    }

    /// Values as the configuration holds them, each way: numbers, whole numbers, switches.
    @Test func valuesAreTheConfigurations() throws {
        let text = "controller.balance.pitch.kp: 31.5  # was 30.0\nloop.overrun_limit: 7\nsafety.auto_arm: false  # was true\n"
        let stored = try StoredParameters(parsing: text, file: "p.yaml")
        #expect(stored.entries.map(\.configValue) == [.number(31.5), .integer(7), .boolean(false)])
        #expect(stored.entries.map(\.configWas) == [.number(30), nil, .boolean(true)])
        let again = StoredParameters(entries: stored.entries.map { StoredParameters.Entry(path: $0.path, value: $0.configValue, was: $0.configWas)! })
        #expect(again.text(program: "poise run", configuration: nil) == stored.text(program: "poise run", configuration: nil))
        #expect(StoredParameters.Entry(path: "loop.rate_hz", value: .number(100), was: nil) == nil)
        #expect(StoredParameters.Entry(path: "safety.auto_arm", value: .number(1), was: nil) == nil)
    }

    /// Applied over a file, the cross-key rules hold: an arming tilt above the file's maximum
    /// tilt is refused at the stored line.
    @Test func appliedOverAFileTheCrossKeyRulesHold() throws {
        let configuration = try PoiseConfiguration.parse(text: Self.file, file: "robot.yaml")
        let good = try StoredParameters(parsing: "safety.max_tilt_deg: 40\ncontroller.balance.pitch.kp: 31.5\n", file: "p.yaml")
        let applied = try configuration.applying(good, file: "p.yaml")
        #expect(applied.values["safety.max_tilt_deg"] == .number(40))
        #expect(applied.safety.supervisor.maxTilt < configuration.safety.supervisor.maxTilt)  // through its binding
        #expect(applied.values["controller.balance.pitch.kp"] == .number(31.5))

        let bad = try StoredParameters(parsing: "# stored\ncontroller.balance.pitch.kp: 31.5\nsafety.max_tilt_deg: 10\n", file: "p.yaml")
        let error = try #require(throws: ConfigErrors.self) { try configuration.applying(bad, file: "p.yaml") }
        #expect(error.errors.first?.file == "p.yaml")
        #expect(error.errors.first?.line == 3, "\(error)")
    }
}

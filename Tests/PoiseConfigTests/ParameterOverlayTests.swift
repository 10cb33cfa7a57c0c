import PoiseConfig
import PropertyBased
import Testing

/// The stored parameters' overlay: what storage writes reads back exactly, a bad line is
/// refused with its line, and applied over a file it is checked as the file is.
struct ParameterOverlayTests {
    static let file = "board:\n  kind: sim\ncontroller:\n  kind: balance\nsafety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 15\n"

    /// Any parameter values written read back as the same entries, whatever the numbers.
    @Test func whatIsWrittenReadsBackExactly() async {
        let parameters = ConfigSchema.keys.filter(ParameterOverlay.allows)
        await propertyCheck(count: 200, input: Gen.int(in: 0 ... parameters.count - 1), Gen.double(in: -1e6 ... 1e6),
                            Gen.int(in: -1000 ... 1000)) { index, number, whole in
            let key = parameters[index]
            let value: ConfigValue = switch key.type {
            case .boolean: .boolean(whole % 2 == 0)
            case .integer: .integer(whole)
            default: .number(number)
            }
            let overlay = ParameterOverlay(entries: [ParameterOverlay.Entry(path: key.path, value: value, was: value)])
            // A value out of its key's range is refused on reading, with the range; any other reads back.
            let text = overlay.text(configuration: "/etc/poise/poise.yaml")
            do {
                let read = try ParameterOverlay(parsing: text, file: "p.yaml")
                #expect(read.entries.map(\.path) == [key.path])
                #expect(read.entries.first?.value == value)
                #expect(read.entries.first?.was == value)
                #expect(read.entries.first?.line == 4)
            } catch let error as ConfigErrors {
                #expect(error.errors.count == 1)
                #expect(error.errors.first?.line == 4)
                #expect(error.errors.first?.message.contains("out of range") == true, "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

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
        let error = try #require(throws: ConfigErrors.self) { try ParameterOverlay(parsing: text, file: "/var/lib/poise/parameters.yaml") }
        #expect(error.description == """
        /var/lib/poise/parameters.yaml:3: controller.balance.pitch.kp: written twice
        /var/lib/poise/parameters.yaml:4: safety.max_tilt_deg: `500.0` is out of range (allowed: \(ConfigSchema.key("safety.max_tilt_deg")!.allowed!))
        /var/lib/poise/parameters.yaml:5: loop.rate_hz: not a parameter (only numbers and switches a reload may change are stored on the board)
        /var/lib/poise/parameters.yaml:6: controller.kind: not a parameter (only numbers and switches a reload may change are stored on the board)
        /var/lib/poise/parameters.yaml:7: expected `key: value` (a key's dotted path, a colon, its value)
        /var/lib/poise/parameters.yaml:8: safety.arm_source_x: unknown key
        /var/lib/poise/parameters.yaml:9: controller.balance.pitch.kd: expected \(ConfigSchema.key("controller.balance.pitch.kd")!.typeDescription), got `fast` (allowed: \(ConfigSchema.key("controller.balance.pitch.kd")!.allowed ?? ""))
        """)
    }

    /// Applied over a file, the cross-key rules hold: an arming tilt above the file's maximum
    /// tilt is refused at the overlay's line.
    @Test func appliedOverAFileTheCrossKeyRulesHold() throws {
        let configuration = try PoiseConfiguration.parse(text: Self.file, file: "robot.yaml")
        let good = try ParameterOverlay(parsing: "safety.max_tilt_deg: 40\ncontroller.balance.pitch.kp: 31.5\n", file: "p.yaml")
        let applied = try configuration.applying(good, file: "p.yaml")
        #expect(applied.values["safety.max_tilt_deg"] == .number(40))
        #expect(applied.safety.supervisor.maxTilt < configuration.safety.supervisor.maxTilt)  // through its binding
        #expect(applied.values["controller.balance.pitch.kp"] == .number(31.5))

        let bad = try ParameterOverlay(parsing: "# stored\ncontroller.balance.pitch.kp: 31.5\nsafety.max_tilt_deg: 10\n", file: "p.yaml")
        let error = try #require(throws: ConfigErrors.self) { try configuration.applying(bad, file: "p.yaml") }
        #expect(error.errors.first?.file == "p.yaml")
        #expect(error.errors.first?.line == 3, "\(error)")
    }
}

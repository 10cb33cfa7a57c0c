import Testing
@testable import PoiseConfig

/// `loop.rate_hz` against the bus arithmetic of docs/wiring.md.
@Suite struct BusBudgetTests {
    @Test func wireLimitsMatchTheWiringTable() {
        #expect(Int(BusBudget.wireLimitHz(clockHz: 100_000, magnetometerRateHz: 0)) == 641)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 100_000, magnetometerRateHz: 100)) == 575)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 400_000, magnetometerRateHz: 0)) == 2564)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 400_000, magnetometerRateHz: 100)) == 2498)
    }

    @Test func aRateTheBusCannotCarryIsRefusedWithItsLine() throws {
        let text = "board:\n  i2c_clock_hz: 100000\nloop:\n  rate_hz: 1000\n"
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "b.yaml")
            Issue.record("1 kHz on a 100 kHz bus was accepted")
        } catch {
            #expect(error.description.hasPrefix("b.yaml:4: loop.rate_hz: 1000 Hz is more than a 100 kHz I²C bus carries: at most 383 Hz"))
        }
        // 6D frees the magnetometer's share; 400 Hz fits then (≤ 427 Hz).
        _ = try PoiseConfiguration.parse(text: "board:\n  i2c_clock_hz: 100000\nsensor:\n  magnetometer: false\nfilter:\n  magnetometer: false\nloop:\n  rate_hz: 400\n", file: "c.yaml")
        _ = try PoiseConfiguration.parse(text: "loop:\n  rate_hz: 1000\n", file: "d.yaml")
    }
}

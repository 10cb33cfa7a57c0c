import Testing
@testable import PoiseConfig

/// `loop.rate_hz` against the bus arithmetic of docs/wiring.md.
@Suite struct BusBudgetTests {
    @Test func wireLimitsMatchTheWiringTable() {
        #expect(Int(BusBudget.wireLimitHz(clockHz: 100_000, magnetometerRateHz: 0)) == 490)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 100_000, magnetometerRateHz: 100)) == 440)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 400_000, magnetometerRateHz: 0)) == 1960)
        #expect(Int(BusBudget.wireLimitHz(clockHz: 400_000, magnetometerRateHz: 100)) == 1910)
    }

    @Test func aRateTheBusCannotCarryIsRefusedWithItsLine() throws {
        let text = "board:\n  i2c_clock_hz: 100000\nloop:\n  rate_hz: 1000\n"
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "b.yaml")
            Issue.record("1 kHz on a 100 kHz bus was accepted")
        } catch {
            #expect(error.description.hasPrefix("b.yaml:4: loop.rate_hz: 1000 Hz is more than a 100 kHz I²C bus carries: at most 293 Hz"))
        }
        // 6D frees the magnetometer's share; 320 Hz fits then (≤ 326 Hz).
        _ = try PoiseConfiguration.parse(text: "board:\n  i2c_clock_hz: 100000\nsensor:\n  magnetometer: false\nfilter:\n  magnetometer: false\nloop:\n  rate_hz: 320\n", file: "c.yaml")
        _ = try PoiseConfiguration.parse(text: "loop:\n  rate_hz: 1000\n", file: "d.yaml")
    }
}

/// Without the FIFO, a chip slower than the loop would leave ticks without a new sample.
@Suite struct SampleRateRuleTests {
    @Test func aSampleRateBelowTheLoopRateIsRefusedWithItsLine() throws {
        let text = "sensor:\n  sample_rate_hz: 40\nloop:\n  rate_hz: 1000\n"
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "s.yaml")
            Issue.record("a 40 Hz chip under a 1 kHz loop was accepted")
        } catch {
            #expect(error.description.hasPrefix("s.yaml:2: sensor.sample_rate_hz: the chip converts at 40 Hz, slower than loop.rate_hz 1000 Hz"),
                    "\(error.description)")
        }
        // The rate the chip really runs at counts: 300 Hz asks for 333.3 Hz, enough for 333 Hz.
        _ = try PoiseConfiguration.parse(text: "sensor:\n  sample_rate_hz: 300\nloop:\n  rate_hz: 333\n", file: "a.yaml")
        // 520 Hz becomes 500 Hz: too slow for 510 Hz.
        #expect(throws: ConfigErrors.self) {
            _ = try PoiseConfiguration.parse(text: "sensor:\n  sample_rate_hz: 520\nloop:\n  rate_hz: 510\n", file: "b.yaml")
        }
        // The FIFO delivers whatever the chip made: no rule.
        _ = try PoiseConfiguration.parse(text: "sensor:\n  sample_rate_hz: 40\n  fifo: true\nloop:\n  rate_hz: 1000\n", file: "c.yaml")
        // A loop at the default 200 Hz with the default 1 kHz chip.
        _ = try PoiseConfiguration.parse(text: "{}\n", file: "d.yaml")
    }
}

/// The MPU-9250's output data rate as the configuration sets it: the internal rate (1 kHz;
/// 8 kHz with the 250 Hz low-pass) divided by 1 + SMPLRT_DIV, the divider chosen nearest to
/// `sensor.sample_rate_hz`.
public enum SensorRate {
    /// The internal rate the divider divides for a gyroscope low-pass of `dlpfHz`.
    public static func internalRate(dlpfHz: Int) -> Double { dlpfHz == 250 ? 8000 : 1000 }

    /// The SMPLRT_DIV value (0…255) whose output rate `internalRate / (1 + divider)` is
    /// nearest to `rate`; on a tie, the faster one.
    public static func divider(nearest rate: Double, internalRate: Double) -> UInt8 {
        guard rate > 0, rate.isFinite else { return 0 }
        let exact = internalRate / rate - 1
        let low = UInt8(max(0, min(255, exact.rounded(.down))))
        let high = UInt8(max(0, min(255, exact.rounded(.up))))
        let lowError = abs(internalRate / (1 + Double(low)) - rate)
        let highError = abs(internalRate / (1 + Double(high)) - rate)
        return highError < lowError ? high : low
    }

    /// The rate the chip really converts at, Hz.
    public static func outputRate(sampleRateHz: Double, dlpfHz: Int) -> Double {
        let base = internalRate(dlpfHz: dlpfHz)
        return base / (1 + Double(divider(nearest: sampleRateHz, internalRate: base)))
    }
}

extension ConfigSchema {
    /// Without the FIFO a tick reads the newest conversion: a chip slower than the loop
    /// leaves ticks without a new sample, so the loop would run on stale data.
    static let sampleRateRule = ConfigRule(paths: ["sensor.sample_rate_hz", "loop.rate_hz", "sensor.dlpf_hz"]) { file, _ in
        guard !file.boolean("sensor.fifo") else { return nil }
        let loop = file.number("loop.rate_hz")
        let requested = file.number("sensor.sample_rate_hz")
        let chip = SensorRate.outputRate(sampleRateHz: requested, dlpfHz: file.integer("sensor.dlpf_hz"))
        guard chip < loop else { return nil }
        let shown = chip == requested ? "" : " (the chip's nearest rate to \(formatRate(requested)) Hz)"
        return "the chip converts at \(formatRate(chip)) Hz\(shown), slower than loop.rate_hz \(formatRate(loop)) Hz: "
            + "ticks would find no new sample; set sensor.sample_rate_hz to at least the loop rate, or lower loop.rate_hz"
    }
}

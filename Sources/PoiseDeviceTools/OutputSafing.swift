import PoiseControl
import PoiseFlightCore
import PoiseHAL
import PoiseOutputs

/// `safe` (the service's `ExecStopPost`): opens each configured output on its own at its safe
/// value and lets it go — GPIO lines released at their safe level, sysfs PWM channels left
/// exported and enabled at their safe pulse (disabled when it is 0), the PCA9685 keeping its
/// safe pulses. One line per channel in the configuration's order; every failure is returned
/// and the other outputs are made safe regardless.
public enum OutputSafing {
    /// Drives every channel of `settings` safe. `bus` is nil when the bus the PCA9685 is on
    /// could not be opened (`busProblem` says why): its channels are then reported failed.
    public static func makeSafe<G: GPIODevice, F: PWMFileSystem, B: I2CBus>(
        _ settings: OutputBankSettings, gpio: G, files: F, bus: inout B?, busProblem: OutputError? = nil
    ) -> (lines: [String], failures: [OutputError]) {
        if var open = bus.take() {
            let result = makeSafe(settings, gpio: gpio, files: files, bus: &open)
            bus = open
            return result
        }
        var none = NoI2CBus()
        var reduced = settings
        reduced.channels.removeAll { isOnPCA9685($0) }
        var (lines, failures) = makeSafe(reduced, gpio: gpio, files: files, bus: &none)
        if let busProblem, settings.usesPCA9685 {
            failures.append(busProblem)
            // Every channel in the configuration's order, the PCA9685's failed.
            let made = lines
            lines = []
            var next = 0
            for spec in settings.channels {
                if isOnPCA9685(spec) { lines.append(line(spec, ok: false)) } else { lines.append(made[next]); next += 1 }
            }
        }
        return (lines, failures)
    }

    /// Drives every channel of `settings` safe through `bus` (the PCA9685's, or any bus when none is used).
    public static func makeSafe<G: GPIODevice, F: PWMFileSystem, B: I2CBus>(
        _ settings: OutputBankSettings, gpio: G, files: F, bus: inout B
    ) -> (lines: [String], failures: [OutputError]) {
        var failures: [OutputError] = []
        var bank = OutputBank(openingWhatItCan: settings, gpio: gpio, files: files, bus: &bus, failures: &failures)
        var open: [Bool] = []
        for index in settings.channels.indices { open.append(bank.isOpen(index)) }
        failures += bank.release(unexport: false, bus: &bus)
        var lines: [String] = []
        for (index, spec) in settings.channels.enumerated() {
            lines.append(line(spec, ok: open[index] && !failed(spec, failures)))
        }
        return (lines, failures)
    }

    static func failed(_ spec: OutputChannelSpec, _ failures: [OutputError]) -> Bool {
        failures.contains { $0.channel == spec.name || ($0.channel == "PCA9685" && isOnPCA9685(spec)) }
    }

    static func isOnPCA9685(_ spec: OutputChannelSpec) -> Bool {
        if case .pca9685 = spec.hardware { true } else { false }
    }

    /// `esc1  PCA9685 channel 0  safe: 1000 µs pulse`, or `… FAILED (see below)`.
    public static func line(_ spec: OutputChannelSpec, ok: Bool) -> String {
        let safe = spec.mapping.safeValue
        let value: String
        switch spec.hardware {
        case .gpio(let request):
            value = "level " + String(safe) + (request.activeLow ? " (active low)" : "") + ", released"
        case .pwm:
            value = safe == 0 ? "no pulse, disabled" : microseconds(safe) + " µs pulse, enabled"
        case .pca9685:
            value = safe == 0 ? "no pulse" : microseconds(safe) + " µs pulse"
        }
        return spec.name + "  " + spec.place + "  " + (ok ? "safe: " + value : "FAILED (see below)")
    }

    /// Nanoseconds as µs: whole numbers plain, others with one decimal.
    static func microseconds(_ nanoseconds: UInt32) -> String {
        let value = Double(nanoseconds) / 1000
        return value == value.rounded() ? String(Int(value)) : ReportFormat.fixed(value, 1)
    }
}

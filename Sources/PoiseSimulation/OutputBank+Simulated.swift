import PoiseFlightCore
import PoiseHAL
import PoiseOutputs

/// The output bank of the simulated board: the same ``OutputBank`` code as on a real board,
/// over simulated GPIO chips and an in-memory `/sys/class/pwm`.
public typealias SimulatedOutputBank = OutputBank<SimulatedGPIODevice, SimulatedPWMFiles>

extension SimulatedGPIODevice {
    /// Chips for every chip a bank's channels name: a `gpiochipN` or `/dev/gpiochipN` name
    /// becomes that chip, a label becomes a chip with that label (64 lines each).
    public init(for settings: OutputBankSettings) {
        var names: [String] = []
        for spec in settings.channels {
            if case .gpio(let request) = spec.hardware, !names.contains(request.chip) { names.append(request.chip) }
        }
        self.init(chips: names.enumerated().map { index, name in
            let path = name.hasPrefix("/dev/") ? String(name.dropFirst(5)) : name
            if path.hasPrefix("gpiochip") { return Chip(name: path, label: "sim", lines: 64) }
            if let number = Int(path) { return Chip(name: "gpiochip\(number)", label: "sim", lines: 64) }
            return Chip(name: "gpiochip\(100 + index)", label: name, lines: 64)
        })
    }
}

extension SimulatedPWMFiles {
    /// Enough chips and channels (at least 2 per chip) for a bank's PWM channels, at its root.
    public init(for settings: OutputBankSettings) {
        var chips: [Int] = [2]
        for spec in settings.channels {
            if case .pwm(let chip, let channel, _, _) = spec.hardware {
                while chips.count <= chip { chips.append(2) }
                chips[chip] = max(chips[chip], channel + 1)
            }
        }
        self.init(root: settings.pwmSysfsRoot, channelsPerChip: chips)
    }
}

extension OutputBank where GPIO == SimulatedGPIODevice, Files == SimulatedPWMFiles {
    /// Opens the channels on simulated hardware sized for them; PCA9685 channels go to the
    /// PCA9685 on `bus` (a ``SimulatedI2CBus`` with one at `settings.pca9685.address`).
    public init(simulating settings: OutputBankSettings, bus: inout some I2CBus) throws(OutputError) {
        try self.init(settings: settings, gpio: SimulatedGPIODevice(for: settings), files: SimulatedPWMFiles(for: settings), bus: &bus)
    }
}

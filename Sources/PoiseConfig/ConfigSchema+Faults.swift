extension ConfigSchema {
    // `simulation.faults`: faults the simulated board rehearses at given times, in the manner
    // of ArduPilot SITL's SIM_* parameters but as one timed list. Bound in
    // PoiseConfiguration+Faults.swift; what each kind does is in docs/simulation.md.

    /// The most faults one file may list (the schedule is walked between every two ticks).
    static let maximumFaults = 64

    /// Cross-key checks of `simulation.faults`, each on the line of the key at fault.
    static let faultRules: [ConfigRule] = [
        ConfigRule(paths: ["simulation.faults", "board.kind"]) { file, _ in
            let count = file.list("simulation.faults").count
            if count > maximumFaults { return "at most \(maximumFaults) faults, got \(count)" }
            guard count > 0, file.string("board.kind") != "sim" else { return nil }
            return "faults are rehearsed on the simulated board only (board.kind: sim); a real board's faults cannot be injected"
        },
        ConfigRule(list: "simulation.faults", paths: ["channel", "kind"]) { fault, file in
            let channel = fault.string("channel")
            guard fault.string("kind") == "output_write_failure" else {
                return channel.isEmpty ? nil : "`channel` applies to output_write_failure only, not \(fault.string("kind"))"
            }
            let names = file.list("outputs.channels").map { $0.string("name") }
            if channel.isEmpty {
                return "output_write_failure needs `channel`: the name of an output channel"
                    + (names.isEmpty ? " (outputs.channels is empty)" : " (\(names.joined(separator: ", ")))")
            }
            guard !names.contains(channel) else { return nil }
            return "no output channel is named `\(channel)`"
                + (names.isEmpty ? " (outputs.channels is empty)" : "; outputs.channels has \(names.joined(separator: ", "))")
        },
        ConfigRule(list: "simulation.faults", paths: ["duration_s", "kind"]) { fault, _ in
            let duration = fault.number("duration_s")
            switch fault.string("kind") {
            case "stall" where duration == 0:
                return "a stall needs `duration_s`: how long the loop's clock stops (e.g. 2)"
            case "chip_reset" where duration != 0:
                return "chip_reset is an instant: leave duration_s out (for a chip that is gone a while first, add a nack fault ending when it resets)"
            default:
                return nil
            }
        },
        ConfigRule(list: "simulation.faults", paths: ["kind"]) { fault, file in
            guard fault.string("kind") == "magnetometer_lost", !file.boolean("sensor.magnetometer") else { return nil }
            return "magnetometer_lost rehearses nothing: the magnetometer is not read (sensor.magnetometer: false)"
        },
        ConfigRule(list: "simulation.faults", paths: ["at_s", "duration_s"]) { fault, file in
            let faults = file.list("simulation.faults")
            let overlapping = faults.indices.filter { FaultWindow(faults[$0]).overlaps(FaultWindow(fault)) }
            guard overlapping.count > 1 else { return nil }
            guard let other = overlapping.first(where: { faults[$0] != fault }) else {
                return "the same fault is listed twice (simulation.faults[\(overlapping[0])] and [\(overlapping[1])])"
            }
            let window = FaultWindow(faults[other])
            return "overlaps simulation.faults[\(other)] (\(window.description)): two \(fault.string("kind")) faults "
                + "at once make no difference; make it one fault, or let one end before the other starts"
        },
    ]
}

/// When one `simulation.faults` entry acts, for the overlap check: [start, end), an instant
/// (chip_reset) at its start, a stall over the time its clock jumps.
struct FaultWindow {
    let kind: String
    let channel: String
    let start: Double
    let end: Double

    init(_ fault: ConfigTable) {
        kind = fault.string("kind")
        channel = fault.string("channel")
        start = fault.number("at_s")
        let duration = fault.number("duration_s")
        end = kind == "chip_reset" ? start : duration == 0 ? .infinity : start + duration
    }

    /// The same kind (and channel) acting at a common time.
    func overlaps(_ other: FaultWindow) -> Bool {
        guard kind == other.kind, channel == other.channel else { return false }
        if start == end || other.start == other.end { return start == other.start }
        return start < other.end && other.start < end
    }

    var description: String {
        let from = ConfigFormat.number(start)
        if start == end { return "at \(from) s" }
        return end == .infinity ? "from \(from) s on" : "\(from)…\(ConfigFormat.number(end)) s"
    }
}

import PoiseConfig
import PoiseControl
import PoiseOutputs
import PoiseRun
import PoiseSettings
import PoiseSimulation

/// What one simulated run measured, for `poise simulate`'s summary and a Monte-Carlo trial
/// alike — only what was measured: a figure that was not (a never-settled run's RMS, every
/// figure of a run whose plant diverged) is nil and printed "—", and a figure that came out
/// non-finite is nil too and makes the run a failure (``nonFinite`` names it).
public struct RunFigures: Sendable, Equatable {
    /// When the loop first armed, s; nil: never.
    public var armedAt: Double?
    /// The plant's integration broke down (PoiseSimulation's ``PlantDivergence``): the run
    /// is a failure and none of its figures are measurements.
    public var divergence: PlantDivergence?
    /// Figures (or the true attitude) that came out non-finite although the plant did not
    /// report a divergence, by name; non-empty: the run is a failure.
    public var nonFinite: [String] = []
    /// Seconds from arming until the true pitch stayed within 1° to the end; nil: never (or not measured).
    public var settlingTime: Double?
    /// Largest true |pitch| and |roll| from 2 s after arming, degrees; nil: not measured.
    public var worstPitch: Double?, worstRoll: Double?
    /// Largest true tilt from arming to the end, degrees; nil: not measured.
    public var worstTiltSinceArming: Double?
    /// True pitch RMS after settling, degrees; nil: it never settled (nothing to measure).
    public var pitchRMS: Double?
    /// How long the drive outputs sat at a limit while armed.
    public var saturation: Saturation

    /// Whether every figure is a measurement: no divergence, nothing non-finite.
    public var measured: Bool { divergence == nil && nonFinite.isEmpty }

    /// Largest true |pitch| or |roll| from 2 s after arming, degrees; nil: not measured.
    public var worstTilt: Double? {
        guard let worstPitch, let worstRoll else { return nil }
        return max(worstPitch, worstRoll)
    }

    public init(report: SimulationReport, configuration: PoiseConfiguration, divergence: PlantDivergence?) {
        armedAt = report.armedAt
        self.divergence = divergence
        saturation = Saturation(report: report, configuration: configuration, until: divergence?.time)
        guard divergence == nil else { return }
        // The true attitude itself: a NaN there makes every max() below skip it silently.
        if let index = (0..<report.time.count).first(where: { !report.truePitch[$0].isFinite || !report.trueRoll[$0].isFinite }) {
            nonFinite.append("true attitude (from \(Formatting.fixed(report.time[index], 3)) s)")
        }
        func finite(_ x: Double, _ name: String) -> Double? {
            if x.isFinite { return x }
            nonFinite.append(name)
            return nil
        }
        if let armed = report.armedAt, let settled = report.pitchWithinOneDegreeFrom {
            settlingTime = finite(settled - armed, "settling time")
            pitchRMS = finite(report.pitchRMSAfterSettling, "true pitch RMS")
        }
        if let armed = report.armedAt {
            // From 2 s after arming: a run that ended sooner measured no worst tilt.
            if let end = report.time.last, end >= armed + 2 {
                worstPitch = finite(report.worstTiltAfterSettling.pitch, "worst true pitch")
                worstRoll = finite(report.worstTiltAfterSettling.roll, "worst true roll")
            }
            worstTiltSinceArming = finite(report.worstTiltSinceArming, "worst true tilt since arming")
        }
        if !nonFinite.isEmpty {
            settlingTime = nil; pitchRMS = nil; worstPitch = nil; worstRoll = nil; worstTiltSinceArming = nil
        }
    }

    /// A figure as a report prints it: fixed digits, or "—" when not measured.
    public static func text(_ x: Double?, _ digits: Int = 2, unit: String = "") -> String {
        x.map { Formatting.fixed($0, digits) + unit } ?? "—"
    }

    /// Why a run's figures are not measurements, in one line; nil when they are.
    public var unmeasuredText: String? {
        if let divergence {
            return "DIVERGED at \(Formatting.fixed(divergence.time, 3)) s: \(divergence.cause) — the plant's integration broke down, so nothing after it is a measurement"
        }
        if !nonFinite.isEmpty { return "NON-FINITE: \(nonFinite.joined(separator: ", ")) — not a measurement" }
        return nil
    }
}

/// The share of armed time the drive outputs (ESCs, wheel drives) sat at a limit of their
/// range: a controller at its limit has no authority left that way, so a trial that held
/// while pinned there for long held on luck and margins from a linear analysis do not apply.
///
/// A limit is an end of the output's signal range as its channel maps it (the channel's
/// `input_min`/`input_max`), and for a quad's motor, while armed, its idle throttle
/// (`controller.quad.idle_throttle`) below which the mixer does not go. A wheel's drive
/// magnitude (`left_wheel_duty`, 0…1 with the direction on its own pins) has one limit,
/// full drive. Measured on the report's ticks (every tick up to 20 000 per run, evenly
/// thinned beyond).
public struct Saturation: Sendable, Equatable {
    /// The share of armed ticks on which any drive output sat at a limit, 0…1; nil: no armed
    /// tick or no drive output.
    public var fraction: Double?
    /// Per drive channel, the share of armed ticks it sat at a limit.
    public var channels: [Channel] = []

    public struct Channel: Sendable, Equatable {
        public var name: String
        public var fraction: Double
    }

    /// A trial that held with an output at a limit at least this share of its armed time is
    /// marginal: a fifth of the time without authority to one side means the disturbances it
    /// met were caught by the other side's margin, not by the controller's design. The
    /// default robot and quad spend under 1 % there; held trials seen pinned on robots written
    /// from the docs, 29–45 %.
    public static let marginalFraction = 0.2

    /// Within this share of the signal's span of a limit counts as at it (the mapped
    /// output's rounding to whole nanoseconds is far below it).
    static let tolerance = 1e-3

    public init(fraction: Double?, channels: [Channel] = []) {
        self.fraction = fraction
        self.channels = channels
    }

    /// - Parameter until: the end of what was measured (a divergence's time); nil: the whole run.
    public init(report: SimulationReport, configuration: PoiseConfiguration, until: Double? = nil) {
        let mappings = OutputBankSettings(configuration: configuration).channels.map(\.mapping)
        let idle = configuration.values.number("controller.quad.idle_throttle")
        // (channel index in the report, lower limit or nil, upper limit) in signal units.
        var drives: [(index: Int, low: Float?, high: Float, mapping: ChannelMapping)] = []
        for (index, m) in mappings.enumerated() where index < report.outputs.count {
            guard case .pulse = m.kind else { continue }
            switch m.signal {
            case .motor1, .motor2, .motor3, .motor4, .motor5, .motor6, .motor7, .motor8:
                drives.append((index, max(m.inputMin, Float(idle)), m.inputMax, m))
            case .leftWheelDuty, .rightWheelDuty:
                drives.append((index, nil, m.inputMax, m))
            case .leftWheel, .rightWheel:
                drives.append((index, m.inputMin, m.inputMax, m))
            default: continue
            }
        }
        guard !drives.isEmpty else { return }
        var armed = 0, any = 0
        var each = Array(repeating: 0, count: drives.count)
        for tick in 0..<report.time.count where report.arm[tick] == 1 {
            if let until, report.time[tick] >= until { break }
            armed += 1
            var pinned = false
            for (k, d) in drives.enumerated() {
                let m = d.mapping
                let spanOut = Double(m.outputMaxNanoseconds - m.outputMinNanoseconds)
                guard spanOut != 0, m.inputMax > m.inputMin else { continue }
                // The report keeps pulses in µs; back to the signal through the channel's map.
                var f = (report.outputs[d.index][tick] * 1000 - Double(m.outputMinNanoseconds)) / spanOut
                if m.invert { f = 1 - f }
                let span = Double(m.inputMax - m.inputMin)
                let signal = Double(m.inputMin) + f * span
                let atHigh = signal >= Double(d.high) - Self.tolerance * span
                let atLow = d.low.map { signal <= Double($0) + Self.tolerance * span } ?? false
                if atHigh || atLow { each[k] += 1; pinned = true }
            }
            if pinned { any += 1 }
        }
        guard armed > 0 else { return }
        fraction = Double(any) / Double(armed)
        channels = drives.enumerated().map { k, d in
            Channel(name: report.channelNames[d.index], fraction: Double(each[k]) / Double(armed))
        }
    }

    /// "12.3 % (left_pwm 10.1 %, right_pwm 11.0 %)", or "—".
    public var text: String {
        guard let fraction else { return "—" }
        let parts = channels.map { "\($0.name) \(Formatting.fixed(100 * $0.fraction, 1)) %" }
        return "\(Formatting.fixed(100 * fraction, 1)) %" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
    }
}

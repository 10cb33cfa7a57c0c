import PoiseConfig
import PoiseRun
import PoiseSimulation

/// What counts as a trial that held, by plant.
public enum SuccessRule: Sendable, Equatable {
    /// The balancing robot stayed up: armed, never failed safe, true tilt below
    /// `safety.max_tilt_deg` from arming to the end.
    case staysUp(maxTiltDegrees: Double)
    /// The quadrotor held roll and pitch within this many degrees from 2 s after arming to
    /// the end (through the gust), never failing safe.
    case holdsLevel(degrees: Double)

    /// The rule for a configuration's plant; nil for a plant that is not controlled.
    public static func forConfiguration(_ configuration: PoiseConfiguration) -> SuccessRule? {
        switch SimulatedRig.plant(configuration) {
        case .balancingRobot: .staysUp(maxTiltDegrees: configuration.values.number("safety.max_tilt_deg"))
        case .quadrotor: .holdsLevel(degrees: 3)
        case .motion, .auto: nil
        }
    }

    public var text: String {
        switch self {
        case .staysUp(let limit): "stayed up (armed, never failed safe, true tilt below \(Formatting.number(limit))°; following a drive script, true pitch within \(Formatting.number(TrialOutcome.leanLimit))° of its lean setpoint after settling)"
        case .holdsLevel(let limit): "held roll and pitch within \(Formatting.number(limit))° from 2 s after arming (never failed safe)"
        }
    }
}

/// One trial's result.
public struct TrialOutcome: Sendable, Equatable {
    public var trial: Int
    public var seed: Int
    public var drawn: [DrawnValue]
    public var success: Bool
    /// When the loop armed, s; nil: never.
    public var armedAt: Double?
    /// When and why the supervisor failed safe (not the end of the run).
    public var failsafeAt: Double?
    public var failsafeReason: String?
    /// The plant's integration broke down: a failure, reported apart, with no figures.
    public var divergence: PlantDivergence?
    /// Figures that came out non-finite (a failure; RunFigures.swift).
    public var nonFinite: [String]
    /// Seconds from arming until the true pitch stayed within 1° to the end; nil: never.
    public var settlingTime: Double?
    /// Largest true |pitch| or |roll| from 2 s after arming, degrees; nil: not measured.
    public var worstTilt: Double?
    /// Root mean square of the true pitch error (the setpoint is level) after settling,
    /// degrees; nil: it never settled, so there was nothing to measure.
    public var pitchRMS: Double?
    /// A robot following a drive script: the largest |true pitch − lean setpoint| after
    /// settling (`DriveTracking`), degrees; nil when it stood still.
    public var leanError: Double?
    /// The share of armed time any drive output sat at a limit (``Saturation``); nil: never armed.
    public var saturation: Double?
    /// Held, but with a drive output at a limit for at least ``Saturation/marginalFraction`` of its armed time.
    public var marginal: Bool
    /// The bar for a driven robot: true pitch within 2° of the lean its setpoint asks for.
    public static let leanLimit = 2.0

    public init(world: TrialWorld, report: SimulationReport, rule: SuccessRule, divergence: PlantDivergence? = nil) {
        trial = world.trial
        seed = world.seed
        drawn = world.drawn
        let figures = RunFigures(report: report, configuration: world.configuration, divergence: divergence)
        armedAt = report.armedAt
        failsafeAt = report.failsafeAt
        failsafeReason = report.failsafeAt == nil ? nil : "\(report.failsafeReason)"
        self.divergence = divergence
        nonFinite = figures.nonFinite
        settlingTime = figures.settlingTime
        worstTilt = figures.worstTilt
        pitchRMS = figures.pitchRMS
        // A diverged trial's share is of the moments before it: in no distribution either.
        saturation = figures.measured ? figures.saturation.fraction : nil
        let held = report.armedAt != nil && report.failsafeAt == nil && figures.measured
        switch rule {
        case .staysUp(let limit):
            leanError = report.drive.driven ? report.drive.worstLeanError : nil
            if let lean = leanError, !lean.isFinite { nonFinite.append("worst lean error"); leanError = nil }
            success = held && nonFinite.isEmpty && (figures.worstTiltSinceArming ?? .infinity) < limit
                && (leanError ?? 0) <= Self.leanLimit
        case .holdsLevel(let limit): success = held && (worstTilt ?? .infinity) <= limit
        }
        marginal = success && (saturation ?? 0) >= Saturation.marginalFraction
    }

    /// Sorts the worst first: diverged, then other failures, then marginal trials, then by
    /// worst tilt (not measured first), then by trial number.
    public static func worseThan(_ a: TrialOutcome, _ b: TrialOutcome) -> Bool {
        if (a.divergence != nil) != (b.divergence != nil) { return a.divergence != nil }
        if a.success != b.success { return !a.success }
        if a.marginal != b.marginal { return a.marginal }
        let ta = a.worstTilt ?? .infinity, tb = b.worstTilt ?? .infinity
        if ta != tb { return ta > tb }
        return a.trial < b.trial
    }
}

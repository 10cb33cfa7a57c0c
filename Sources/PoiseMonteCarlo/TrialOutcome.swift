import PoiseConfig
import PoiseLoop

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
    /// Seconds from arming until the true pitch stayed within 1° to the end; nil: never.
    public var settlingTime: Double?
    /// Largest true |pitch| or |roll| from 2 s after arming, degrees.
    public var worstTilt: Double
    /// Root mean square of the true pitch error (the setpoint is level) after settling, degrees.
    public var pitchRMS: Double
    /// A robot following a drive script: the largest |true pitch − lean setpoint| after
    /// settling (`DriveTracking`), degrees; nil when it stood still.
    public var leanError: Double?
    /// The bar for a driven robot: true pitch within 2° of the lean its setpoint asks for.
    public static let leanLimit = 2.0

    public init(world: TrialWorld, report: SimulationReport, rule: SuccessRule) {
        trial = world.trial
        seed = world.seed
        drawn = world.drawn
        armedAt = report.armedAt
        failsafeAt = report.failsafeAt
        failsafeReason = report.failsafeAt == nil ? nil : "\(report.failsafeReason)"
        if let armed = report.armedAt, let settled = report.pitchWithinOneDegreeFrom { settlingTime = settled - armed }
        worstTilt = max(report.worstTiltAfterSettling.pitch, report.worstTiltAfterSettling.roll)
        pitchRMS = report.pitchRMSAfterSettling
        let held = report.armedAt != nil && report.failsafeAt == nil
        switch rule {
        case .staysUp(let limit):
            leanError = report.drive.driven ? report.drive.worstLeanError : nil
            success = held && report.worstTiltSinceArming < limit && (leanError ?? 0) <= Self.leanLimit
        case .holdsLevel(let limit): success = held && worstTilt <= limit
        }
    }

    /// Sorts the worst first: failures, then by worst tilt, then by trial number.
    public static func worseThan(_ a: TrialOutcome, _ b: TrialOutcome) -> Bool {
        if a.success != b.success { return !a.success }
        if a.worstTilt != b.worstTilt { return a.worstTilt > b.worstTilt }
        return a.trial < b.trial
    }
}

/// The attitude filters `poise` can run, by the name used on the command line and in config.
public enum FilterKind: String, Sendable, CaseIterable {
    /// Poise's best filter (VQF-class): the default.
    case poise
    /// Multiplicative extended Kalman filter with gyroscope-bias states.
    case mekf
    /// Madgwick's gradient-descent filter with a start-up gain ramp.
    case madgwick
    /// Mahony's explicit complementary filter with a bias integral.
    case mahony
    /// Complementary filter (time constant; 0 = accelerometer-only tilt).
    case complementary

    public static let `default` = FilterKind.poise
    public static var names: String { allCases.map { $0.rawValue }.joined(separator: ", ") }
}

/// A motion described as a sequence of segments, usually parsed from a small text language.
///
/// ## The language
///
/// One statement per line (or several separated by `;`); `#` starts a comment. Keywords and
/// units are case-insensitive. Axes are body axes: `x`, `y`, `z`, optionally signed (`-z`),
/// or a vector `0.6,0.8,0` (no spaces; normalised). Numbers may be signed and use `e`.
///
/// ```text
/// rest DURATION                                       # hold still
/// rotate AXIS ANGLE over DURATION                     # smooth (minimum-jerk) rotation
/// spin AXIS RATE for DURATION                         # constant angular rate
/// wobble DURATION amplitude ANGLE frequency FREQ [about AXIS]   # default about x
/// shake DURATION amplitude ACCEL frequency FREQ [along AXIS]    # default along x
/// move AXIS DISTANCE over DURATION                    # smooth translation
/// strokes DURATION frequency FREQ stop ACCEL over DURATION [along AXIS]  # push, sharp stop
/// lever VECTOR DISTANCE                               # sensor offset from the centre of rotation
/// repeat COUNT { STATEMENTS }                         # may span lines, may nest
///
/// DURATION = NUMBER [s | ms | min]      (seconds when no unit)
/// ANGLE    = NUMBER (deg | rad)
/// RATE     = NUMBER (deg/s | rad/s | rpm)
/// ACCEL    = NUMBER (m/s2 | m/s^2 | g)  (g = 9.80665 m/s²)
/// FREQ     = NUMBER hz
/// DISTANCE = NUMBER (m | cm | mm)
/// ```
///
/// Example:
///
/// ```text
/// rest 2
/// rotate z 90 deg over 1.5 s
/// spin y 180 deg/s for 2 s
/// shake 3 s amplitude 2 m/s2 frequency 4 hz
/// wobble 5 s amplitude 10 deg frequency 1 hz about 0.6,0.8,0
/// repeat 3 { rotate z 90 deg over 1 s ; rest 0.5 }
/// ```
///
/// Errors carry positions (`<script>:3:12: expected an angle unit (deg or rad) after '90'`).
/// Limits keep hostile input from hanging or exhausting memory: a script expands to at most
/// ``maximumSegmentCount`` segments and ``maximumDuration`` seconds, `repeat` nests at most
/// 16 deep.
///
/// ```swift
/// let script = try MotionScript(parsing: text, name: "spin.motion")
/// let demo = MotionScript.preset(named: "demo")!
/// ```
public struct MotionScript: Sendable, Equatable {
    /// Name used in error messages and metadata (file path, preset name, or `<script>`).
    public var name: String
    /// The segments in order, with `repeat` blocks expanded.
    public var segments: [MotionSegment]
    /// Where the sensor sits relative to the centre of rotation, m, in the body frame (the
    /// `lever` statement): rotation then moves it on an arc, adding ω̇ × r + ω × (ω × r) to its
    /// acceleration. Zero: the sensor sits at the centre.
    public var leverArm: SIMD3<Double> = SIMD3(0, 0, 0)

    /// At most this many segments after expanding `repeat`.
    public static let maximumSegmentCount = 100_000
    /// At most this many seconds in total (about 11.5 days).
    public static let maximumDuration: Double = 1_000_000

    /// A script from segments you built yourself (not validated; use sane values).
    public init(name: String = "<script>", segments: [MotionSegment], leverArm: SIMD3<Double> = SIMD3(0, 0, 0)) {
        self.name = name
        self.segments = segments
        self.leverArm = leverArm
    }

    /// Parses the motion language described above.
    ///
    /// - Parameters:
    ///   - source: the script text.
    ///   - name: used as the file part of error positions.
    /// - Throws: ``MotionScriptError`` with the line and column of the first problem.
    public init(parsing source: String, name: String = "<script>") throws(MotionScriptError) {
        var parser = MotionScriptParser(source: source, name: name)
        self.name = name
        self.segments = try parser.parseScript()
        self.leverArm = parser.leverArm
    }

    /// Total length in seconds.
    public var duration: Double {
        var total = 0.0
        for segment in segments { total += segment.duration }
        return total
    }
}

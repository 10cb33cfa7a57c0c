// Core Motion's attitude reference frames on top of Poise's ENU filter output.

/// The world frame an attitude is reported in, as Core Motion's `CMAttitudeReferenceFrame`.
/// In all of them z is vertical, pointing up.
public enum ReferenceFrame: String, Sendable, Hashable, CaseIterable {
    /// x horizontal in an arbitrary direction: the device's heading when the reference is
    /// captured (the first attitude then has yaw 0).
    case xArbitraryZVertical
    /// As `xArbitraryZVertical`. In Core Motion "corrected" means the magnetometer is used to
    /// stop the yaw drifting; in Poise that is a property of the filter (9-axis rather than
    /// 6-axis), so the frame transform is identical.
    case xArbitraryCorrectedZVertical
    /// x toward magnetic north, y west, z up (NWU relative to magnetic north).
    case xMagneticNorthZVertical
    /// x toward true (geographic) north, y west, z up; needs the magnetic declination.
    case xTrueNorthZVertical

    /// True for the frames whose x axis points north, where a compass heading exists.
    @inlinable
    public var isNorthReferenced: Bool {
        self == .xMagneticNorthZVertical || self == .xTrueNorthZVertical
    }
}

/// Turns filter attitudes (body-to-ENU, with north = magnetic north) into attitudes relative to
/// a `ReferenceFrame`, as Core Motion reports them.
///
/// The output is `frameFromENU ⊗ q`, with `frameFromENU` a rotation about the vertical:
/// - magnetic north: `Rz(−90°)` (ENU → NWU);
/// - true north: `Rz(−90° − declination)`;
/// - arbitrary: `Rz(−yaw₀)`, where `yaw₀` is the heading of the first attitude converted
///   (captured on first use, or again after `resetReference()`).
///
/// A value type with no allocation; call `attitude(fromENU:)` on the real-time path.
@frozen
public struct FrameTransform: Hashable, Sendable {
    /// The frame attitudes are converted to.
    public let frame: ReferenceFrame
    /// Magnetic declination in radians, **east positive** (magnetic north lies this far east,
    /// clockwise, of true north). Used by `xTrueNorthZVertical` only.
    public let declination: Float
    /// The rotation from ENU coordinates to the frame's coordinates. For the arbitrary frames
    /// this is the identity until the reference is captured.
    @inlinable public var frameFromENU: Quaternion { _frameFromENU }
    /// False for the arbitrary frames until the first attitude has been converted.
    @inlinable public var isReferenceCaptured: Bool { _isReferenceCaptured }

    @usableFromInline var _frameFromENU: Quaternion
    @usableFromInline var _isReferenceCaptured: Bool

    /// A transform to `frame`. `declination` in radians, east positive.
    @inlinable
    public init(frame: ReferenceFrame, declination: Float = 0) {
        self.frame = frame
        self.declination = declination
        switch frame {
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical:
            _frameFromENU = .identity
            _isReferenceCaptured = false
        case .xMagneticNorthZVertical:
            _frameFromENU = WorldAxes.rotation(from: .enu, to: .nwu)
            _isReferenceCaptured = true
        case .xTrueNorthZVertical:
            // Magnetic ENU → true ENU is Rz(−declination); then ENU → NWU.
            let half = declination / 2
            _frameFromENU = WorldAxes.rotation(from: .enu, to: .nwu)
                * Quaternion(w: _cos(half), x: 0, y: 0, z: -_sin(half))
            _isReferenceCaptured = true
        }
    }

    /// A transform to `frame` with the declination in degrees, east positive.
    @inlinable
    public init(frame: ReferenceFrame, declinationDegrees: Float) {
        self.init(frame: frame, declination: radians(fromDegrees: declinationDegrees))
    }

    /// The body-to-frame attitude of the body-to-ENU attitude `q`. For the arbitrary frames
    /// the first call with a finite `q` captures the reference heading.
    @inlinable
    public mutating func attitude(fromENU q: Quaternion) -> Quaternion {
        if !_isReferenceCaptured && q.isFinite {
            let half = q.heading / 2
            _frameFromENU = Quaternion(w: _cos(half), x: 0, y: 0, z: -_sin(half))
            _isReferenceCaptured = true
        }
        return _frameFromENU * q
    }

    /// Forgets the captured reference of an arbitrary frame; the next attitude becomes yaw 0.
    /// No effect on the north-referenced frames.
    @inlinable
    public mutating func resetReference() {
        if !frame.isNorthReferenced {
            _frameFromENU = .identity
            _isReferenceCaptured = false
        }
    }

    /// A vector given in ENU coordinates (e.g. a world acceleration) in the frame's
    /// coordinates, using the current reference.
    @inlinable
    public func vector(fromENU v: SIMD3<Float>) -> SIMD3<Float> {
        frameFromENU.rotate(v)
    }

    /// Core Motion's `heading` for an attitude already in this frame: degrees in [0, 360),
    /// clockwise from the frame's north (magnetic or true) to the device top (body +y).
    /// −1 for the arbitrary frames, where Core Motion reports a negative value as "invalid".
    @inlinable
    public func headingDegrees(ofAttitude attitudeInFrame: Quaternion) -> Float {
        frame.isNorthReferenced ? attitudeInFrame.compassHeading(world: .nwu) : -1
    }
}

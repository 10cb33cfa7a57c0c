import PoiseMath

/// Which way the device faces, from gravity, with the names of `UIDeviceOrientation`.
///
/// Body axes: x to the right edge, y to the top edge, z out of the screen (face).
public enum DeviceOrientation: String, Sendable, Hashable, CaseIterable {
    /// Upright, top edge up (gravity along −y).
    case portrait
    /// Upright, top edge down (gravity along +y).
    case portraitUpsideDown
    /// On its side, top edge to the left: the right edge (+x) is up (gravity along −x).
    case landscapeLeft
    /// On its side, top edge to the right: the right edge is down (gravity along +x).
    case landscapeRight
    /// Lying flat, face up (gravity along −z).
    case faceUp
    /// Lying flat, face down (gravity along +z). A robot that has fallen on its face.
    case faceDown
    /// No axis is near vertical.
    case unknown
}

/// Turns a stream of gravity vectors into orientation-change events, with hysteresis so a
/// device held near a boundary does not flicker.
///
/// An orientation is entered when its axis comes within `enterAngle` of vertical and kept
/// until that axis tilts beyond `leaveAngle`; then the detector reports the orientation whose
/// axis is within `enterAngle`, or `.unknown`. Since `leaveAngle` > `enterAngle`, noise of
/// less than their difference near a boundary cannot cause a change.
@frozen
public struct DeviceOrientationDetector: Sendable {
    /// Largest angle between an axis and vertical for entering its orientation, rad.
    /// Default 30°.
    public var enterAngle: Float
    /// Angle between the current orientation's axis and vertical beyond which it is left,
    /// rad. Default 45°; must not be below `enterAngle`.
    public var leaveAngle: Float
    /// The current orientation.
    public private(set) var orientation: DeviceOrientation

    public init(enterAngle: Float = .pi / 6, leaveAngle: Float = .pi / 4) {
        self.enterAngle = enterAngle
        self.leaveAngle = max(leaveAngle, enterAngle)
        orientation = .unknown
    }

    /// Feeds one gravity vector (body frame, pointing down, any scale). Returns the new
    /// orientation when it changed, `nil` otherwise. Zero or non-finite input is ignored.
    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    public mutating func update(gravity: SIMD3<Float>) -> DeviceOrientation? {
        let n2 = dot(gravity, gravity)
        guard n2.isFinite, n2 > 1e-12 else { return nil }
        let g = gravity * reciprocalSquareRoot(n2)
        if let axis = Self.downComponent(of: orientation, in: g), axis >= _cos(leaveAngle) {
            return nil  // still within the hysteresis band
        }
        // The axis most aligned with gravity, if close enough to vertical.
        var next = DeviceOrientation.unknown
        let magnitudes = SIMD3(abs(g.x), abs(g.y), abs(g.z))
        let largest = max(magnitudes.x, max(magnitudes.y, magnitudes.z))
        if largest >= _cos(enterAngle) {
            if largest == magnitudes.z {
                next = g.z < 0 ? .faceUp : .faceDown
            } else if largest == magnitudes.y {
                next = g.y < 0 ? .portrait : .portraitUpsideDown
            } else {
                next = g.x < 0 ? .landscapeLeft : .landscapeRight
            }
        }
        guard next != orientation else { return nil }
        orientation = next
        return next
    }

    /// How much of unit gravity `g` lies along `orientation`'s downward axis (cosine of the
    /// angle to vertical); `nil` for `.unknown`.
    @inlinable
    static func downComponent(of orientation: DeviceOrientation, in g: SIMD3<Float>) -> Float? {
        switch orientation {
        case .portrait: return -g.y
        case .portraitUpsideDown: return g.y
        case .landscapeLeft: return -g.x
        case .landscapeRight: return g.x
        case .faceUp: return -g.z
        case .faceDown: return g.z
        case .unknown: return nil
        }
    }
}


/// The world frame replay and the live loop report attitudes in: one of Core Motion's
/// reference frames, or a plain axis layout (ENU, NWU, NED) with north = magnetic north.
public enum OutputFrame: Sendable, Hashable {
    case reference(ReferenceFrame)
    case axes(WorldAxes)

    /// Every accepted spelling, for `--frame` help and errors.
    public static let names: [String] =
        WorldAxes.allCases.map { $0.rawValue } + ReferenceFrame.allCases.map { $0.rawValue }

    /// Parses `enu`, `nwu`, `ned` or a reference frame name (case-insensitive).
    public init?(name: String) {
        let lowered = name.lowercased()
        if let axes = WorldAxes.allCases.first(where: { $0.rawValue == lowered }) {
            self = .axes(axes)
        } else if let frame = ReferenceFrame.allCases.first(where: { $0.rawValue.lowercased() == lowered }) {
            self = .reference(frame)
        } else {
            return nil
        }
    }

    public var name: String {
        switch self {
        case .reference(let frame): frame.rawValue
        case .axes(let axes): axes.rawValue
        }
    }

    /// True where a compass heading exists (x or y of the world points to north).
    public var isNorthReferenced: Bool {
        switch self {
        case .reference(let frame): frame.isNorthReferenced
        case .axes: true
        }
    }
}

/// Converts filter attitudes (body-to-ENU) into an `OutputFrame`. No allocation.
@frozen
public struct OutputFrameTransform: Sendable {
    @usableFromInline var reference: FrameTransform
    @usableFromInline let fromENU: Quaternion
    @usableFromInline let usesReference: Bool

    public init(_ frame: OutputFrame, declinationDegrees: Float = 0) {
        switch frame {
        case .reference(let f):
            reference = FrameTransform(frame: f, declinationDegrees: declinationDegrees)
            fromENU = .identity
            usesReference = true
        case .axes(let axes):
            reference = FrameTransform(frame: .xMagneticNorthZVertical)
            fromENU = WorldAxes.rotation(from: .enu, to: axes)
            usesReference = false
        }
    }

    /// The body-to-output-frame attitude of a body-to-ENU attitude.
    @inlinable
    public mutating func attitude(fromENU q: Quaternion) -> Quaternion {
        usesReference ? reference.attitude(fromENU: q) : fromENU * q
    }
}

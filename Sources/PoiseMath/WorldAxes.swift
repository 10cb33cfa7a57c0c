// Layouts of the world frame and exact conversions between them.

/// How a world (navigation) frame's axes are laid out. Poise's filters use `.enu`.
///
/// - `enu`: x east, y north, z up.
/// - `nwu`: x north, y west, z up (Core Motion's `xMagneticNorthZVertical` layout).
/// - `ned`: x north, y east, z down (aerospace; PX4, ArduPilot).
///
/// Converting an attitude between layouts changes **only the world frame**. The body frame is
/// kept as it is (a phone's x right, y top, z out of the screen). Aerospace body-to-NED
/// attitudes usually also assume a forward-right-down body frame; if you need that, compose
/// a body rotation on the right yourself.
public enum WorldAxes: String, Sendable, Hashable, CaseIterable {
    case enu, nwu, ned

    /// The upward unit vector in this layout.
    @inlinable
    public var up: SIMD3<Float> {
        switch self {
        case .enu, .nwu: SIMD3(0, 0, 1)
        case .ned: SIMD3(0, 0, -1)
        }
    }

    /// The northward unit vector in this layout.
    @inlinable
    public var north: SIMD3<Float> {
        switch self {
        case .enu: SIMD3(0, 1, 0)
        case .nwu, .ned: SIMD3(1, 0, 0)
        }
    }

    /// The eastward unit vector in this layout.
    @inlinable
    public var east: SIMD3<Float> {
        switch self {
        case .enu: SIMD3(1, 0, 0)
        case .nwu: SIMD3(0, -1, 0)
        case .ned: SIMD3(0, 1, 0)
        }
    }

    /// The constant rotation `C` taking coordinates in layout `from` to coordinates in layout
    /// `to`: `v_to = C.rotate(v_from)`, and a body-to-`from` attitude `q` becomes the
    /// body-to-`to` attitude `C ⊗ q`. Components are exactly 0, ±1 or ±√½ (as Float).
    @inlinable
    public static func rotation(from: WorldAxes, to: WorldAxes) -> Quaternion {
        let h: Float = 0.7071067811865476  // √½
        switch (from, to) {
        case (.enu, .enu), (.nwu, .nwu), (.ned, .ned): return .identity
        case (.enu, .nwu): return Quaternion(w: h, x: 0, y: 0, z: -h)   // −90° about z
        case (.nwu, .enu): return Quaternion(w: h, x: 0, y: 0, z: h)    // +90° about z
        case (.enu, .ned), (.ned, .enu): return Quaternion(w: 0, x: h, y: h, z: 0)  // 180° about (1,1,0)
        case (.nwu, .ned), (.ned, .nwu): return Quaternion(w: 0, x: 1, y: 0, z: 0)  // 180° about x
        }
    }

    /// The vector `v`, given in this layout, in layout `target`. Exact (a signed permutation).
    @inlinable
    public func convert(_ v: SIMD3<Float>, to target: WorldAxes) -> SIMD3<Float> {
        // Go through ENU: each layout's axes as ENU components.
        let e: SIMD3<Float>
        switch self {
        case .enu: e = v
        case .nwu: e = SIMD3(-v.y, v.x, v.z)
        case .ned: e = SIMD3(v.y, v.x, -v.z)
        }
        switch target {
        case .enu: return e
        case .nwu: return SIMD3(e.y, -e.x, e.z)
        case .ned: return SIMD3(e.y, e.x, -e.z)
        }
    }

    /// A body-to-`self` attitude as a body-to-`target` attitude: `rotation(from: self, to:
    /// target) ⊗ q`. The body frame is unchanged.
    @inlinable
    public func convert(attitude q: Quaternion, to target: WorldAxes) -> Quaternion {
        self == target ? q : WorldAxes.rotation(from: self, to: target) * q
    }
}

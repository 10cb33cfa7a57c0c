// Tilt and heading of an attitude: the two parts of "which way is the device pointing".

extension Quaternion {
    /// Angle in radians, 0…π, between the body z axis and the world vertical (+z):
    /// 0 when lying flat face up, π/2 on edge, π face down. Independent of heading.
    ///
    /// Equals `acos(m22)` with `m22 = 1 − 2(x² + y²)`, computed as
    /// `2·atan2(√(x² + y²), √(w² + z²))` to stay accurate near 0 and π.
    @inlinable
    public var tilt: Float {
        let xy = squareRoot(x * x + y * y), wz = squareRoot(w * w + z * z)
        return min(2 * _atan2(xy, wz), Float.pi)
    }

    /// Heading in radians, (−π, π]: the yaw of `EulerAngles(self)`, i.e. the rotation about the
    /// world vertical in `R = Rz(heading)·Rx(pitch)·Ry(roll)`.
    ///
    /// It is the counter-clockwise angle, seen from above, from world +y to the horizontal
    /// projection of body +y (in ENU: 0 when the device top points north, +π/2 when it points
    /// west). Changing only pitch or roll does not change it. When body y is vertical (pitch
    /// ±π/2) no such angle exists; the gimbal-lock rule of `EulerAngles` applies (roll = 0) and
    /// the heading is then the direction the body −z axis (a phone's back camera) points when
    /// the top is up, or the +z axis when the top is down, so it stays finite and continuous
    /// while the device is held upright and turned about the vertical. Close to that pose it
    /// changes quickly with small roll changes (unavoidable for any heading that ignores pitch
    /// and roll).
    @inlinable
    public var heading: Float { EulerAngles(self).yaw }

    /// Compass-style heading in degrees, [0, 360), clockwise from north: the direction the
    /// device top (body +y) points, like Core Motion's `CMDeviceMotion.heading`, which is
    /// measured clockwise from the reference frame's north.
    ///
    /// `world` says how this attitude's world frame is laid out (where north is: +y for ENU,
    /// +x for NWU and NED). Equals `−heading` in degrees for an ENU attitude. For an attitude
    /// relative to magnetic north this is the magnetic heading; relative to true north, the true
    /// heading (see `FrameTransform`). Gimbal lock as for `heading`.
    @inlinable
    public func compassHeading(world: WorldAxes = .enu) -> Float {
        let enu = world == .enu ? self : world.convert(attitude: self, to: .enu)
        var h = -degrees(fromRadians: enu.heading) + 0  // + 0 turns −0 into +0
        if h < 0 { h += 360 }
        if h >= 360 { h -= 360 }
        return h
    }
}

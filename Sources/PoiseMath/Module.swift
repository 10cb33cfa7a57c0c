// PoiseMath: attitude mathematics without Foundation. Hot-path helpers are `@inlinable`.
//
// Conventions used throughout:
// - Quaternions are Hamilton, scalar first, unit length, body-to-world: `q.rotate(v)` maps
//   body coordinates to world coordinates. `a * b` applies `b` first.
// - The filters' world frame is ENU (x east, y north, z up); `WorldAxes` converts to NWU/NED.
// - Euler angles follow Core Motion: pitch about x, roll about y, yaw about z, with
//   R = Rz(yaw)·Rx(pitch)·Ry(roll) (see `EulerAngles`).
// - SI units: radians, m/s². Degrees appear only where named (`compassHeading`, `degrees`).
//
// Everything here may be called from `@_noAllocation` code (checked with a release build).

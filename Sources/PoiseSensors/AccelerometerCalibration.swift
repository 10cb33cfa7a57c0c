import PoiseMath
/// Accelerometer offset and scale per axis from six static poses, one per face up.
///
/// With the model `raw = scale · true + offset` per axis, the +axis-up and −axis-up poses
/// read `scale·g + offset` and `−scale·g + offset`, so offset = (up + down) / 2 and
/// scale = (up − down) / 2g. Cross-axis misalignment is not estimated. Poses may come in
/// any order; each is identified by the axis gravity falls on.
public struct AccelerometerSixPositionCalibration: Sendable {
    /// The local gravity, m/s².
    public var gravity: Float

    public init(gravity: Float = Gravity.standard) { self.gravity = gravity }

    static let faces = ["+x", "-x", "+y", "-y", "+z", "-z"]

    /// The largest standard deviation of a pose's readings on any axis that still counts as
    /// resting, m/s² (the accelerometer's noise is about 0.01).
    public static let maximumPoseDeviation: Float = 0.1

    /// Refuses a pose during which the board moved.
    public static func checkResting(_ pose: VectorStatistics) throws(CalibrationError) {
        let deviation = pose.standardDeviation.max()
        guard deviation < maximumPoseDeviation else {
            throw .moving(sensor: "accelerometer", standardDeviation: deviation, threshold: maximumPoseDeviation, unit: "m/s²")
        }
    }

    /// Offset (m/s²) and scale from the six averaged pose readings (body frame, m/s²).
    public func solve(poses: [SIMD3<Float>]) throws(CalibrationError) -> (offset: SIMD3<Float>, scale: SIMD3<Float>) {
        var byFace = [SIMD3<Float>?](repeating: nil, count: 6)
        for (index, reading) in poses.enumerated() {
            let magnitudes = SIMD3(abs(reading.x), abs(reading.y), abs(reading.z))
            let axis = magnitudes.x >= magnitudes.y && magnitudes.x >= magnitudes.z ? 0 : (magnitudes.y >= magnitudes.z ? 1 : 2)
            // Gravity on one axis: the others carry only offsets and tilt (< 0.25 g).
            var others = magnitudes
            others[axis] = 0
            guard magnitudes[axis] > 0.7 * gravity, others.max() < 0.25 * gravity else {
                throw .notAxisAligned(pose: index, reading: reading)
            }
            let face = 2 * axis + (reading[axis] > 0 ? 0 : 1)
            guard byFace[face] == nil else { throw .duplicatePose(Self.faces[face]) }
            byFace[face] = reading
        }
        let missing = (0..<6).filter { byFace[$0] == nil }.map { Self.faces[$0] }
        guard missing.isEmpty else { throw .missingPoses(missing) }
        var offset = SIMD3<Float>.zero, scale = SIMD3<Float>.one
        for axis in 0..<3 {
            let up = byFace[2 * axis]![axis], down = byFace[2 * axis + 1]![axis]
            offset[axis] = (up + down) / 2
            scale[axis] = (up - down) / (2 * gravity)
        }
        return (offset, scale)
    }
}

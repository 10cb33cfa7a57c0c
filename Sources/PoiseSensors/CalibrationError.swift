/// Why a calibration could not produce parameters; each says what to do instead.
public enum CalibrationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The board moved while it had to stay still.
    case moving(sensor: String, standardDeviation: Float, threshold: Float, unit: String)
    /// Not enough samples.
    case tooFewSamples(got: Int, need: Int)
    /// A six-position pose was not flat on a face.
    case notAxisAligned(pose: Int, reading: SIMD3<Float>)
    /// A face was recorded twice.
    case duplicatePose(String)
    /// Faces are missing.
    case missingPoses([String])
    /// The magnetometer samples do not outline an ellipsoid.
    case notAnEllipsoid(String)

    public var description: String {
        switch self {
        case let .moving(sensor, deviation, threshold, unit):
            return "the board moved: \(sensor) standard deviation \(format(deviation)) \(unit) exceeds \(format(threshold)) \(unit); keep it still and try again"
        case let .tooFewSamples(got, need):
            return "\(got) samples; at least \(need) are needed"
        case let .notAxisAligned(pose, reading):
            return "pose \(pose + 1) is not flat on a face (reading \(format(reading.x)), \(format(reading.y)), \(format(reading.z)) m/s²); rest the board on one face"
        case .duplicatePose(let face):
            return "the pose with \(face) up was recorded twice"
        case .missingPoses(let faces):
            return "missing poses: \(faces.joined(separator: ", ")) up"
        case .notAnEllipsoid(let reason):
            return "the magnetometer samples do not outline an ellipsoid (\(reason)); turn the board slowly through all orientations, away from iron"
        }
    }
}

/// A short decimal rendering for messages.
func format(_ value: Float, digits: Int = 4) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale: Float = 1
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

/// Mean and standard deviation of 3-vectors, accumulated in Double (Welford).
public struct VectorStatistics: Sendable, Equatable {
    public private(set) var count = 0
    var mean = SIMD3<Double>.zero
    var sumOfSquares = SIMD3<Double>.zero

    public init() {}

    public mutating func add(_ v: SIMD3<Float>) {
        let x = SIMD3<Double>(Double(v.x), Double(v.y), Double(v.z))
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        sumOfSquares += delta * (x - mean)
    }

    /// The mean.
    public var average: SIMD3<Float> { SIMD3(Float(mean.x), Float(mean.y), Float(mean.z)) }

    /// Sample standard deviation per axis.
    public var standardDeviation: SIMD3<Float> {
        guard count > 1 else { return .zero }
        let variance = sumOfSquares / Double(count - 1)
        return SIMD3(Float(variance.x.squareRoot()), Float(variance.y.squareRoot()), Float(variance.z.squareRoot()))
    }
}

/// Whether the samples behind a magnetometer fit can support it. The ellipsoid solver
/// accepts samples that cannot: a board that never turned (noise fitted as a tiny sphere) or
/// turned about one axis only (a ring, which leaves the offset along that axis undetermined).
extension MagnetometerCalibration {
    /// Fitted field strengths that can be the Earth's, µT: 25–65 outdoors, weaker or stronger
    /// indoors, never this far off.
    public static let plausibleFieldStrength: ClosedRange<Float> = 10...200

    /// The smallest variance of the field directions along any axis that still pins the hard
    /// iron: 1/3 for the whole sphere, about 0.1 for a tumble, 0 for a turn about one axis
    /// (every direction on one cone).
    public static let minimumDirectionSpread = 0.02

    /// The smallest variance, along any axis, of the unit vectors of `fields` corrected by
    /// this fit (0 for no usable sample).
    public func directionSpread(_ fields: [SIMD3<Float>]) -> Double {
        var mean = SIMD3<Double>.zero
        var second = [Double](repeating: 0, count: 9)
        var count = 0
        for field in fields {
            let corrected = correct(field)
            let length = (corrected * corrected).sum().squareRoot()
            guard length > 0 else { continue }
            let u = SIMD3<Double>(Double(corrected.x), Double(corrected.y), Double(corrected.z)) / Double(length)
            mean += u
            for i in 0..<3 { for j in 0..<3 { second[i * 3 + j] += u[i] * u[j] } }
            count += 1
        }
        guard count > 0 else { return 0 }
        let n = Double(count)
        mean /= n
        let covariance = (0..<9).map { second[$0] / n - mean[$0 / 3] * mean[$0 % 3] }
        return symmetricEigen3(covariance).values.min() ?? 0
    }

    /// Refuses this fit when `fields` (the samples it came from) cannot support it.
    public func checkCoverage(_ fields: [SIMD3<Float>]) throws(CalibrationError) {
        guard Self.plausibleFieldStrength.contains(fieldStrength) else {
            throw .notAnEllipsoid("the fitted field is \(format(fieldStrength, digits: 1)) µT, the Earth's is 25–65 µT: the board hardly turned")
        }
        let spread = directionSpread(fields)
        guard spread >= Self.minimumDirectionSpread else {
            throw .notAnEllipsoid("the field directions cover too little of the sphere: spread \(format(Float(spread), digits: 3)), at least \(Self.minimumDirectionSpread) needed; turning about one axis is not enough")
        }
    }
}

/// Magnetometer hard- and soft-iron calibration by an ellipsoid fit.
///
/// Least squares on the general quadric
/// `A x² + B y² + C z² + 2D xy + 2E xz + 2F yz + 2G x + 2H y + 2I z = 1`
/// (data centred and scaled first for conditioning), then: centre = hard iron; the quadric's
/// matrix normalised to the ellipsoid form `(x − c)ᵀ Q (x − c) = 1`; soft iron
/// `W = R · Q^½` (symmetric square root), so `W (x − c)` lies on a sphere of radius `R`,
/// the mean of `|x − c|` over the samples (the mean field norm).
public struct MagnetometerCalibration: Sendable, Equatable {
    /// µT; subtract from raw readings.
    public var hardIron: SIMD3<Float>
    /// Rows of the symmetric correction matrix applied after removing hard iron.
    public var softIron: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// The calibrated field strength (sphere radius), µT.
    public var fieldStrength: Float
    /// RMS of `|W (x − c)| − R` over the samples, µT: how well the ellipsoid fits.
    public var residual: Float

    /// Fits `samples` (raw body-frame fields, µT) recorded while turning the board through
    /// many orientations. Needs at least `minimumSamples`.
    public static func fit(_ samples: [SIMD3<Float>], minimumSamples: Int = 50) throws(CalibrationError) -> MagnetometerCalibration {
        guard samples.count >= max(minimumSamples, 9) else {
            throw .tooFewSamples(got: samples.count, need: max(minimumSamples, 9))
        }
        let points = samples.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
        let mean = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        let spread = (points.map { (($0 - mean) * ($0 - mean)).sum() }.reduce(0, +) / Double(points.count)).squareRoot()
        guard spread > 1e-6 else { throw .notAnEllipsoid("all samples are the same") }

        // Normal equations ΦᵀΦ p = Φᵀ1 over normalised points u = (x − mean) / spread.
        var normal = [Double](repeating: 0, count: 81), rhs = [Double](repeating: 0, count: 9)
        for point in points {
            let u = (point - mean) / spread
            let phi = [u.x * u.x, u.y * u.y, u.z * u.z, 2 * u.x * u.y, 2 * u.x * u.z, 2 * u.y * u.z, 2 * u.x, 2 * u.y, 2 * u.z]
            for i in 0..<9 {
                rhs[i] += phi[i]
                for j in 0..<9 { normal[i * 9 + j] += phi[i] * phi[j] }
            }
        }
        guard let p = solveLinearSystem(normal, rhs) else {
            throw .notAnEllipsoid("the samples cover too few directions; turn about all three axes")
        }
        let m = [p[0], p[3], p[4], p[3], p[1], p[5], p[4], p[5], p[2]]
        guard let centreU = solveLinearSystem(m, [-p[6], -p[7], -p[8]]) else {
            throw .notAnEllipsoid("the quadric has no centre")
        }
        // (u − c)ᵀ M (u − c) = 1 + cᵀ M c
        var k = 1.0
        for i in 0..<3 { for j in 0..<3 { k += centreU[i] * m[i * 3 + j] * centreU[j] } }
        let (values, vectors) = symmetricEigen3(m.map { $0 / k })
        guard values.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw .notAnEllipsoid("the fitted quadric is not an ellipsoid")
        }
        // Back to field units: Q_x = Q_u / spread².
        let roots = values.map { ($0 / (spread * spread)).squareRoot() }
        let centre = mean + SIMD3(centreU[0], centreU[1], centreU[2]) * spread
        var sqrtQ = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for e in 0..<3 {
            sqrtQ[i * 3 + j] += vectors[i * 3 + e] * roots[e] * vectors[j * 3 + e]
        } } }
        let radius = points.map { (($0 - centre) * ($0 - centre)).sum().squareRoot() }.reduce(0, +) / Double(points.count)
        let axisRatio = roots.max()! / roots.min()!
        guard axisRatio < 3 else {
            throw .notAnEllipsoid("the axes differ by a factor \(format(Float(axisRatio), digits: 2)); turn through more orientations")
        }
        let rows = (0..<3).map { i in
            SIMD3<Float>(Float(radius * sqrtQ[i * 3]), Float(radius * sqrtQ[i * 3 + 1]), Float(radius * sqrtQ[i * 3 + 2]))
        }
        var calibration = MagnetometerCalibration(
            hardIron: SIMD3(Float(centre.x), Float(centre.y), Float(centre.z)),
            softIron: (rows[0], rows[1], rows[2]), fieldStrength: Float(radius), residual: 0)
        let squares = samples.map { sample -> Float in
            let corrected = calibration.correct(sample)
            let error = (corrected * corrected).sum().squareRoot() - calibration.fieldStrength
            return error * error
        }
        calibration.residual = (squares.reduce(0, +) / Float(squares.count)).squareRoot()
        return calibration
    }

    /// `W (raw − hardIron)`.
    public func correct(_ raw: SIMD3<Float>) -> SIMD3<Float> {
        let d = raw - hardIron
        return SIMD3((softIron.0 * d).sum(), (softIron.1 * d).sum(), (softIron.2 * d).sum())
    }

    public static func == (a: MagnetometerCalibration, b: MagnetometerCalibration) -> Bool {
        a.hardIron == b.hardIron && a.softIron.0 == b.softIron.0 && a.softIron.1 == b.softIron.1
            && a.softIron.2 == b.softIron.2 && a.fieldStrength == b.fieldStrength && a.residual == b.residual
    }
}

extension SensorCalibration {
    /// This calibration with the magnetometer part replaced.
    public func with(_ magnetometer: MagnetometerCalibration) -> SensorCalibration {
        var copy = self
        copy.magnetometerHardIron = magnetometer.hardIron
        copy.magnetometerSoftIron = magnetometer.softIron
        return copy
    }
}

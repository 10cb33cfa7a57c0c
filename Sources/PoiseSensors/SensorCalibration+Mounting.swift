import PoiseDeviceSettings

// A calibration between the chip's frame (what a configuration file holds) and the body frame
// of a chip mounted as `board.mounting` (what the driver applies and the solvers measure),
// for `poise calibrate` and `poise-board calibrate` alike.

extension SensorCalibration {
    /// This chip-frame calibration expressed in the body frame of a chip mounted as `mounting`
    /// (body = M · chip): biases and offsets turn with M, per-axis scales are permuted, the
    /// soft-iron matrix becomes M W Mᵀ. Exact: M only permutes axes and flips signs.
    public func inBodyFrame(_ mounting: Mounting) -> SensorCalibration {
        transformed(by: RotationRows(mounting))
    }

    /// This body-frame calibration (what the driver applies and the solvers measure)
    /// expressed in the frame of the chip mounted as `mounting`; inverse of ``inBodyFrame(_:)``.
    public func inChipFrame(_ mounting: Mounting) -> SensorCalibration {
        transformed(by: RotationRows(mounting).transposed)
    }

    private func transformed(by m: RotationRows) -> SensorCalibration {
        let w = magnetometerSoftIron
        let turned = m * RotationRows(w.0, w.1, w.2) * m.transposed
        return SensorCalibration(
            gyroscopeBias: m * gyroscopeBias,
            accelerometerOffset: m * accelerometerOffset,
            // (M s)ᵢ = ±s_π(i); multiplying by the row's sign (M·1)ᵢ leaves s_π(i).
            accelerometerScale: (m * accelerometerScale) * (m * SIMD3<Float>.one),
            magnetometerHardIron: m * magnetometerHardIron,
            magnetometerSoftIron: (turned.row0, turned.row1, turned.row2))
    }
}

/// A 3×3 matrix by rows, for turning calibrations between chip and body frames.
struct RotationRows {
    var row0, row1, row2: SIMD3<Float>

    init(_ row0: SIMD3<Float>, _ row1: SIMD3<Float>, _ row2: SIMD3<Float>) {
        (self.row0, self.row1, self.row2) = (row0, row1, row2)
    }

    /// The chip-to-body matrix of a mounting (its columns are the images of the chip axes).
    init(_ mounting: Mounting) {
        let c0 = mounting.column0, c1 = mounting.column1, c2 = mounting.column2
        self.init(SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    var transposed: RotationRows {
        RotationRows(SIMD3(row0.x, row1.x, row2.x), SIMD3(row0.y, row1.y, row2.y), SIMD3(row0.z, row1.z, row2.z))
    }

    static func * (m: RotationRows, v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((m.row0 * v).sum(), (m.row1 * v).sum(), (m.row2 * v).sum())
    }

    static func * (a: RotationRows, b: RotationRows) -> RotationRows {
        let t = b.transposed  // rows of t are the columns of b
        return RotationRows(SIMD3((a.row0 * t.row0).sum(), (a.row0 * t.row1).sum(), (a.row0 * t.row2).sum()),
                            SIMD3((a.row1 * t.row0).sum(), (a.row1 * t.row1).sum(), (a.row1 * t.row2).sum()),
                            SIMD3((a.row2 * t.row0).sum(), (a.row2 * t.row1).sum(), (a.row2 * t.row2).sum()))
    }
}

// Small dense linear algebra in Double for calibration (not the real-time path).

/// Solves `a · x = b` (n×n, row-major) by Gaussian elimination with partial pivoting.
/// Returns nil when the matrix is singular relative to its largest entry.
func solveLinearSystem(_ a: [Double], _ b: [Double]) -> [Double]? {
    let n = b.count
    var m = a, rhs = b
    let largest = a.map(abs).max() ?? 0
    guard largest > 0 else { return nil }
    for column in 0..<n {
        var pivot = column
        for row in column + 1..<n where abs(m[row * n + column]) > abs(m[pivot * n + column]) { pivot = row }
        guard abs(m[pivot * n + column]) > 1e-12 * largest else { return nil }
        if pivot != column {
            for k in 0..<n { m.swapAt(column * n + k, pivot * n + k) }
            rhs.swapAt(column, pivot)
        }
        for row in column + 1..<n {
            let factor = m[row * n + column] / m[column * n + column]
            guard factor != 0 else { continue }
            for k in column..<n { m[row * n + k] -= factor * m[column * n + k] }
            rhs[row] -= factor * rhs[column]
        }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
        var sum = rhs[row]
        for k in row + 1..<n { sum -= m[row * n + k] * x[k] }
        x[row] = sum / m[row * n + row]
    }
    return x
}

/// A symmetric 3×3 matrix's eigenvalues and eigenvectors (columns of `vectors`, row-major)
/// by cyclic Jacobi rotations.
func symmetricEigen3(_ matrix: [Double]) -> (values: [Double], vectors: [Double]) {
    var a = matrix
    var v: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    for _ in 0..<50 {
        let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
        if off < 1e-30 { break }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = a[p * 3 + q]
            guard abs(apq) > 1e-300 else { continue }
            let theta = (a[q * 3 + q] - a[p * 3 + p]) / (2 * apq)
            let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot(), s = t * c
            for k in 0..<3 {  // a ← a · J
                let akp = a[k * 3 + p], akq = a[k * 3 + q]
                a[k * 3 + p] = c * akp - s * akq
                a[k * 3 + q] = s * akp + c * akq
            }
            for k in 0..<3 {  // a ← Jᵀ · a
                let apk = a[p * 3 + k], aqk = a[q * 3 + k]
                a[p * 3 + k] = c * apk - s * aqk
                a[q * 3 + k] = s * apk + c * aqk
            }
            for k in 0..<3 {
                let vkp = v[k * 3 + p], vkq = v[k * 3 + q]
                v[k * 3 + p] = c * vkp - s * vkq
                v[k * 3 + q] = s * vkp + c * vkq
            }
        }
    }
    return ([a[0], a[4], a[8]], v)
}

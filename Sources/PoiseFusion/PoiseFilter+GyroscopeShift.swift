import PoiseMath

extension PoiseFilter {
    /// Every gyroscope reading arrives less `offset` from now on (rad/s): the live loop has
    /// measured the start-up bias. The bias estimate, the rest detector's filtered rate and
    /// quiet-time sum, and the motion measurement's filtered R·b̂ all move by the same, as if
    /// the readings had always come that way — otherwise the quiet-time mean would average a
    /// step, and the bias estimate would have to learn the change again.
    @inlinable
    public mutating func gyroscopeReadingsShift(by offset: SIMD3<Float>) {
        biasEstimator.shift(by: offset)
        rest.readingsShift(by: offset)
        // Lanes 6 and 7 hold the low-passed rows of R times the applied correction; the low-pass
        // is linear, so shifting the correction shifts them by the low-passed rows times it.
        let rows = rotationFilter.output
        rotationFilter.output[6] -= rows[0] * offset.x + rows[1] * offset.y + rows[2] * offset.z
        rotationFilter.output[7] -= rows[3] * offset.x + rows[4] * offset.y + rows[5] * offset.z
    }
}

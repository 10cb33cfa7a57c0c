/// A filter that tests its convergence after each update (``AttitudeConvergence``) rather than
/// inside it: the Complementary, Madgwick, Mahony and MEKF filters share this one
/// `loseConvergence` and `trackConvergence` (the default filter tracks it in its update).
///
/// Not annotated `@_noAllocation`: the checker rejects generic code (`Self`'s metadata), so it
/// is checked where it is specialised, in `FlightCore`'s `checkedTick` for each filter.
@usableFromInline
protocol ConvergenceTrackedFilter: AttitudeFilter {
    /// Whether the attitude is established (lost on clipping, a stall, a failsafe).
    var convergence: AttitudeConvergence { get set }
    /// The status whose `notConverged` flag follows `convergence`.
    var status: FilterStatus { get set }
}

extension ConvergenceTrackedFilter {
    /// The attitude can no longer be trusted: `notConverged` until the accelerometer agrees.
    @inlinable
    public mutating func loseConvergence() {
        convergence.lose()
        status.flags.insert(.notConverged)
    }

    /// While not converged (`updateTrackingConvergence` calls it after the update). The update
    /// itself keeps `status.flags` as set here until its next write of them.
    @inlinable
    public mutating func trackConvergence(_ sample: InertialSample, dt: Float) {
        convergence.update(sample, attitude: attitude, dt: dt)
        status.flags = convergence.marking(status.flags)
    }
}

import PoiseControl
import PoiseFusion
import PoiseMath

/// What one tick of the loop hands to the recorder and to telemetry.
///
/// Fixed size and trivially copyable: the tick copies one into a lock-free ring and goes on;
/// the recorder and telemetry threads read them at their own pace. Vectors the tick did not
/// have (no sample, 6D) are NaN.
@frozen
public struct TickRecord: Sendable {
    /// Tick number since start, from 0.
    public var tick: UInt64
    /// Sensor time, s since the first sample (the filter's dt comes from these).
    public var time: Double
    /// A new sample was read this tick.
    public var sampleValid: Bool
    /// The read failed after the driver's retries.
    public var readFailed: Bool
    /// The driver's state (recorded as 0 starting, 1 running, 2 lost).
    public var sensorState: SensorState
    /// What the loop told the tick (`LoopStatus`), so a replay can re-run it.
    public var overrunStreak: UInt16
    public var stopRequested: Bool
    public var outputFaulted: Bool
    /// The tick's scheduled time, s since the loop started (the sample's is `time`).
    public var tickTime: Double
    /// Calibrated body-frame readings, SI units.
    public var accelerometer: SIMD3<Float>
    public var gyroscope: SIMD3<Float>
    public var magnetometer: SIMD3<Float>
    /// The gyroscope after the configured gyro filters (``FlightCore/lastFilteredGyroscope``),
    /// NaN on a tick without a sample.
    public var filteredGyroscope: SIMD3<Float>
    /// A gyroscope axis of this tick's sample was at the end of its range (recorded as
    /// `gyro_clipped`, so a replay loses the estimate's convergence where the run did).
    public var gyroscopeClipped: Bool
    /// Body-to-world estimate in the configured output frame.
    public var attitude: Quaternion
    /// Body angular rate with every bias estimate removed, rad/s.
    public var rotationRate: SIMD3<Float>
    public var filterFlags: FilterFlags
    /// Where the arming supervisor stands after this tick.
    public var armState: ArmState
    /// Why the supervisor made a transition this tick (`.none` when it made none).
    public var eventReason: SafetyReason
    /// The driver's notices this tick (logged by the reporter).
    public var sensorNotices: SensorNotices
    /// The simulated world's true body-to-ENU attitude (NaN on a real board).
    public var truth: Quaternion
    /// Every ``OutputSignal`` this tick, before the channel mappings.
    public var signals: SignalFrame
    /// Every configured output channel's physical value this tick.
    public var outputs: ChannelCommands
    /// How late the tick woke after its scheduled time, and how long it computed, ns.
    public var latenessNanoseconds: Int64
    public var computeNanoseconds: Int64
    /// How late this tick woke when that was a stall (beyond `safety.stall_ms`), ns; 0 otherwise.
    public var stallNanoseconds: Int64
    /// The balancing robot's driving this tick (zero for other controllers).
    public var drive: DriveRecord
    /// The quad stand's setpoint the loop handed the tick.
    public var quadSetpoint: QuadSetpoint
    /// When the pilot's setpoint in effect this tick was received (MANUAL_CONTROL, the
    /// gamepad), s on the loop's clock (the origin of ``tickTime``); NaN before the first.
    public var pilotReceivedTime: Double

    @inlinable
    public init() {
        tick = 0
        time = 0
        sampleValid = false
        readFailed = false
        sensorState = .starting
        overrunStreak = 0
        stopRequested = false
        outputFaulted = false
        tickTime = 0
        accelerometer = SIMD3(repeating: .nan)
        gyroscope = SIMD3(repeating: .nan)
        magnetometer = SIMD3(repeating: .nan)
        filteredGyroscope = SIMD3(repeating: .nan)
        gyroscopeClipped = false
        attitude = .identity
        rotationRate = .zero
        filterFlags = []
        armState = .disarmed
        eventReason = .none
        sensorNotices = SensorNotices()
        truth = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
        signals = SignalFrame()
        outputs = ChannelCommands()
        latenessNanoseconds = 0
        computeNanoseconds = 0
        stallNanoseconds = 0
        drive = DriveRecord()
        quadSetpoint = QuadSetpoint()
        pilotReceivedTime = .nan
    }
}

/// What the page draws for one moment: the newest value of every message, in MAVLink's units
/// and frames (attitude FRD body → NED), so the live stream and a trace look the same to it.
public struct ViewSnapshot: Codable, Sendable, Equatable {
    /// Sensor time of the attitude, s.
    public var time: Double = 0
    /// Wall-clock time the server received it (live) or 0 (trace), ms since 1970.
    public var received: Double = 0
    /// w, x, y, z of the FRD-to-NED attitude (ATTITUDE_QUATERNION).
    public var q: [Float] = [1, 0, 0, 0]
    /// Aircraft roll, pitch, yaw, rad (ATTITUDE).
    public var euler: [Float] = [0, 0, 0]
    /// Body rates p, q, r, rad/s.
    public var rates: [Float] = [0, 0, 0]
    /// SCALED_IMU: mG, mrad/s, mgauss (FRD).
    public var acc: [Int] = [0, 0, 0]
    public var gyro: [Int] = [0, 0, 0]
    public var mag: [Int] = [0, 0, 0]
    /// SERVO_OUTPUT_RAW servo1…16, µs (or 0/1 levels); all 16, unused ones 0.
    public var servo: [Int] = []
    /// 0 disarmed, 1 armed, 2 failsafe (HEARTBEAT custom_mode bits 0–7).
    public var arm: Int = 0
    /// FilterFlags bits (custom_mode bits 8–23).
    public var flags: Int = 0
    /// SYS_STATUS sensor bits present and healthy; load, %.
    public var sensorsPresent: Int = 0
    public var sensorsHealthy: Int = 0
    public var load: Double = 0
    /// Loop statistics by NAMED_VALUE_FLOAT name (µs), arm_state, filt_flags.
    public var values: [String: Float] = [:]
    /// MAVLink system id of the sender; frames lost by sequence gaps; datagrams that were not
    /// MAVLink Poise understands.
    public var systemID: Int = 0
    public var lostFrames: Int = 0
    public var badDatagrams: Int = 0
    /// Wall-clock ms since 1970 minus sensor ms, from SYSTEM_TIME (nil when not sent): a
    /// sample's wall time is `time · 1000 + unixOffsetMs`.
    public var unixOffsetMs: Double? = nil
    /// Frames received in total.
    public var frames: Int = 0
    /// Messages dropped because a value was NaN or infinite.
    public var nonFiniteDropped: Int = 0
    /// NAMED_VALUE_FLOAT names forgotten to keep the snapshot small.
    public var namesEvicted: Int = 0
    /// What the signatures say of the data shown: `verified` (a key was given and every frame
    /// shown carried a valid signature), `unsigned` (no key, and the frames carry none: anyone
    /// on the network could have sent them), `signed, not verified` (no key to check them with).
    public var signing: String = "unsigned"
    /// Frames refused by the key check (unsigned, a bad signature, replayed) and why the last was.
    public var refusedFrames: Int = 0
    public var lastRefusal: String? = nil
    /// Two senders use this system id at once (their sequence numbers and clocks interleave):
    /// the display mixes two vehicles.
    public var duplicateSystem: Bool = false

    public init() {}
}


/// What the driver's running tick has to tell the user, as plain data.
///
/// The loop's real-time thread may not build or log text (both allocate), so the running
/// path only sets bits here; whoever runs off that thread turns them into sentences with
/// `MPU9250Settings.messages(for:)` — `MPU9250.tick()` right away, `poise run` on its
/// reporter thread, from the tick's record.
public struct SensorNotices: Sendable, Equatable, BitwiseCopyable {
    public struct Kinds: OptionSet, Sendable, Equatable, BitwiseCopyable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Accelerometer or gyroscope at full scale (the start of an episode).
        public static let saturated = Kinds(rawValue: 1 << 0)
        /// Back within range (the end of an episode).
        public static let backInRange = Kinds(rawValue: 1 << 1)
        /// The first failed tick of a run of failures (the burst read failed after retries).
        public static let readFailed = Kinds(rawValue: 1 << 2)
        /// Declared lost: `failures` consecutive failed ticks.
        public static let lostAfterFailedReads = Kinds(rawValue: 1 << 3)
        /// Declared lost: the same 14 bytes `failures` times in a row.
        public static let lostStuckData = Kinds(rawValue: 1 << 4)
        /// The AK8963 stopped answering; running 6D from now on.
        public static let magnetometerStopped = Kinds(rawValue: 1 << 5)
        /// The AK8963 answered but produced no data in `failures` reads; running 6D.
        public static let magnetometerSilent = Kinds(rawValue: 1 << 6)
        /// A configuration register read back changed (`register`, `expected`, `found`): the
        /// chip reset itself to its power-on values (a brown-out); the driver re-configures it.
        public static let chipReset = Kinds(rawValue: 1 << 7)
    }

    public var kinds = Kinds(rawValue: 0)
    /// The kernel's error number of the last failed transfer (0: none).
    public var errno: Int32 = 0
    /// The count a notice refers to (failed ticks, identical reads, empty reads).
    public var failures: Int32 = 0
    /// For ``Kinds/chipReset``: the register, the value the driver configured (under its
    /// mask) and the value it read back.
    public var register: UInt8 = 0
    public var expected: UInt8 = 0
    public var found: UInt8 = 0

    public init() {}

    public var isEmpty: Bool { kinds.rawValue == 0 }
}

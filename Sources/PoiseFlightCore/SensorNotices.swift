
/// What the driver's tick has to tell the user, as plain data.
///
/// The loop's real-time thread may not build or log text (both allocate), so the driver
/// only sets bits and numbers here — the running path's (`kinds`) and, once it has started,
/// the re-initialisation's and FIFO mode's (`events`); whoever runs off that thread turns
/// them into sentences with `MPU9250Settings.messages(for:)` — `MPU9250.tick()` right away,
/// `poise run` and `poise-board` on their reporter thread, from the tick's record.
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

    /// What the start-up path did (reset, configuration, re-initialisation) and FIFO mode's
    /// recoveries, once the driver has started (before that it logs them itself).
    public struct Events: OptionSet, Sendable, Equatable, BitwiseCopyable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// A start step failed with a new reason, `fault`: the sensor is unavailable, retried later.
        public static let unavailable = Events(rawValue: 1 << 0)
        /// A re-initialisation failed again with the reason it failed with before (`fault`).
        public static let failedAgain = Events(rawValue: 1 << 1)
        /// A chip of another model answered WHO_AM_I `whoAmI` than the one configured before.
        public static let found = Events(rawValue: 1 << 2)
        /// The AK8963 is set up, with the fuse-ROM adjustment bytes `asa`.
        public static let magnetometerReady = Events(rawValue: 1 << 3)
        /// Setting the AK8963 up failed with a new reason, `magnetometerStart`: running 6D.
        public static let magnetometerUnavailable = Events(rawValue: 1 << 4)
        /// Re-configured after a loss: `lostKinds` (with `failures`, `errno`, `register`,
        /// `expected`, `found`) when the running path gave up, else `fault`, a failed start.
        public static let recovered = Events(rawValue: 1 << 5)
        /// The configuration table for WHO_AM_I `whoAmI` is written and verified.
        public static let configured = Events(rawValue: 1 << 6)
        /// With `configured`: the magnetometer is in use (9D).
        public static let nineAxes = Events(rawValue: 1 << 7)
        /// FIFO mode: the FIFO overflowed (the start of an episode); it is reset.
        public static let fifoOverflow = Events(rawValue: 1 << 8)
        /// FIFO mode: FIFO_COUNT `fifoCount` is not whole frames (the start of an episode); it is reset.
        public static let fifoMisaligned = Events(rawValue: 1 << 9)
        /// FIFO mode: frames flow again after an episode.
        public static let fifoFlowing = Events(rawValue: 1 << 10)
    }

    /// A failed I²C transfer, as plain data (PoiseHAL's `I2CError` without its bus's name).
    public struct Transfer: Sendable, Equatable, BitwiseCopyable {
        /// The operation's case (PoiseSensors maps it), 0 when there was none.
        public var operation: UInt8 = 0
        public var register: UInt8 = 0
        public var value: UInt8 = 0
        public var address: UInt8 = 0
        public var hasAddress = false
        public var count: UInt16 = 0
        public var errno: Int32 = 0
        @inlinable public init() {}

        // Written out and inlinable: the loop's checked tick in another module compares them.
        @inlinable public static func == (a: Self, b: Self) -> Bool {
            a.operation == b.operation && a.register == b.register && a.value == b.value && a.address == b.address
                && a.hasAddress == b.hasAddress && a.count == b.count && a.errno == b.errno
        }
    }

    /// Why a start step failed, as plain data (PoiseSensors' `MPU9250Error` or `AK8963Error`
    /// without words): the step, a register or the value a chip answered, a value read back,
    /// the transfer that failed.
    public struct StartFault: Sendable, Equatable, BitwiseCopyable {
        /// The error's case (PoiseSensors maps it), 0 for none.
        public var step: UInt8 = 0
        /// The configuration register of the step, or the identity a chip answered.
        public var register: UInt8 = 0
        /// The value a register read back.
        public var read: UInt8 = 0
        public var transfer = Transfer()
        @inlinable public init() {}

        @inlinable public static func == (a: Self, b: Self) -> Bool {
            a.step == b.step && a.register == b.register && a.read == b.read && a.transfer == b.transfer
        }
    }

    public var events = Events(rawValue: 0)
    /// For ``Events/unavailable``, ``Events/failedAgain`` and ``Events/recovered``.
    public var fault = StartFault()
    /// For ``Events/magnetometerUnavailable``.
    public var magnetometerStart = StartFault()
    /// For ``Events/recovered``: the running path's loss kinds it recovered from (their
    /// numbers in the fields above), or none when it recovered from `fault`.
    public var lostKinds = Kinds(rawValue: 0)
    /// For ``Events/found`` and ``Events/configured``.
    public var whoAmI: UInt8 = 0
    /// For ``Events/magnetometerReady``: the AK8963's ASA bytes.
    public var asa = SIMD3<UInt8>(repeating: 0)
    /// For ``Events/fifoMisaligned``.
    public var fifoCount: UInt16 = 0

    /// Inlinable: the loop's checked tick in another module makes one every tick.
    @inlinable public init() {}

    public var isEmpty: Bool { kinds.rawValue == 0 && events.rawValue == 0 }
}

import PoiseHAL
import PoiseOutputs

/// An in-memory `/sys/class/pwm` for the simulated board, behind the sysfs seam
/// (``PWMFileSystem``), with the kernel's rules: export creates the channel, a period shorter
/// than the duty cycle and a duty cycle longer than the period are rejected (`EINVAL`), and
/// polarity changes only while disabled (`EBUSY`).
public struct SimulatedPWMFiles: PWMFileSystem, Sendable {
    /// One channel's attributes.
    public struct Channel: Sendable, Equatable {
        public var exported = false
        public var periodNanoseconds: UInt64 = 0
        public var dutyNanoseconds: UInt64 = 0
        public var enabled = false
        public var polarity: PWMPolarity = .normal
    }

    /// The directory the tree pretends to be (the bank's `outputs.pwm_sysfs_root`).
    public let root: String
    /// Channels by chip number (`pwmchipN` is `chips[N]`).
    public private(set) var chips: [[Channel]]
    /// Writes so far (each one a `pwrite` on real sysfs).
    public private(set) var writes = 0
    /// When set, every write is logged as `pwmchip0/pwm1/period=20000000`.
    public var recording = false
    public private(set) var log: [String] = []
    /// The next writes fail with this error.
    public var failWrites: Errno? = nil
    /// Writes to this channel's attribute files fail with EIO: one broken channel (a
    /// rehearsed `output_write_failure`).
    public var failingChannel: ChannelAddress? = nil

    /// A channel by chip and number: `pwmchipN/pwmM`.
    public struct ChannelAddress: Sendable, Equatable {
        public var chip: Int
        public var channel: Int
        public init(chip: Int, channel: Int) {
            self.chip = chip
            self.channel = channel
        }
    }

    /// The attribute file a descriptor is open on.
    enum Attribute: String {
        case period, dutyCycle = "duty_cycle", enable, polarity, export, unexport
    }

    /// What an open descriptor refers to (`channel` -1: a chip's export/unexport file).
    struct OpenFile {
        var chip: Int
        var channel: Int
        var attribute: Attribute
    }

    /// Open files by descriptor - `firstDescriptor` (nil once closed): a tick's write is an
    /// array load, as the kernel's is a table lookup.
    var open: [OpenFile?] = []
    static let firstDescriptor: CInt = 100

    /// Gives this value its own copy of every buffer a write touches (a tick then never
    /// copies on write).
    public mutating func makeBuffersUnique() {
        chips = chips.map { $0.map { $0 } }
        open = open.map { $0 }
        log = log.map { $0 }
    }

    /// `channelsPerChip[n]` channels on `pwmchipN` (the Pi's pwm-2chan overlay: one chip, 2).
    public init(root: String = "/sys/class/pwm", channelsPerChip: [Int] = [2]) {
        self.root = root
        chips = channelsPerChip.map { Array(repeating: Channel(), count: $0) }
    }

    /// `(chip, channel, attribute)` for a path under the root; channel is nil for chip files.
    func parse(_ path: String) -> (chip: Int, channel: Int?, attribute: Attribute?)? {
        guard path.hasPrefix(root + "/pwmchip") else { return nil }
        let parts = path.dropFirst(root.count + 1).split(separator: "/")
        guard let chip = Int(parts[0].dropFirst("pwmchip".count)), chips.indices.contains(chip) else { return nil }
        if parts.count == 1 { return (chip, nil, nil) }
        if parts[1].hasPrefix("pwm"), let channel = Int(parts[1].dropFirst(3)) {
            guard channel >= 0, channel < chips[chip].count, chips[chip][channel].exported else { return nil }
            guard parts.count <= 3 else { return nil }
            guard parts.count == 3 else { return (chip, channel, nil) }
            guard let attribute = Attribute(rawValue: String(parts[2])), attribute != .export, attribute != .unexport else {
                return nil
            }
            return (chip, channel, attribute)
        }
        guard parts.count == 2, let attribute = Attribute(rawValue: String(parts[1])),
              attribute == .export || attribute == .unexport else { return nil }
        return (chip, nil, attribute)
    }

    public func exists(_ path: String) -> Bool {
        path == root || parse(path) != nil
    }

    public mutating func openForWriting(_ path: String) -> Result<CInt, Errno> {
        guard let place = parse(path), let attribute = place.attribute else { return .failure(.noSuchFileOrDirectory) }
        open.append(OpenFile(chip: place.chip, channel: place.channel ?? -1, attribute: attribute))
        return .success(Self.firstDescriptor + CInt(open.count - 1))
    }

    /// A decimal number as sysfs's `kstrtou64` reads it: digits, one optional trailing newline.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        var count = bytes.count
        if count > 0, bytes[count - 1] == UInt8(ascii: "\n") { count -= 1 }
        guard count > 0 else { return nil }
        var value: UInt64 = 0
        for index in 0..<count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(digit))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
        }
        return value
    }

    /// `fd`'s place in `open`, if it is one of ours.
    func slot(_ fd: CInt) -> Int? {
        let slot = Int(fd) - Int(Self.firstDescriptor)
        return open.indices.contains(slot) ? slot : nil
    }

    /// The written text without its trailing newline (for the log and the polarity).
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    public mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        writes += 1
        if let failure = failWrites { return failure }
        guard let slot = slot(fd), let file = open[slot] else { return .badFileDescriptor }
        if let failing = failingChannel, failing.chip == file.chip, failing.channel == file.channel { return .ioError }
        if recording {
            log.append("pwmchip\(file.chip)" + (file.channel < 0 ? "" : "/pwm\(file.channel)")
                       + "/\(file.attribute.rawValue)=\(Self.text(bytes))")
        }
        guard file.channel >= 0 else {
            guard let number = Self.decimal(bytes), number < UInt64(chips[file.chip].count) else { return .invalidArgument }
            let exporting = file.attribute == .export
            if chips[file.chip][Int(number)].exported == exporting { return exporting ? .resourceBusy : .invalidArgument }
            chips[file.chip][Int(number)] = Channel()
            chips[file.chip][Int(number)].exported = exporting
            return nil
        }
        var state = chips[file.chip][file.channel]
        guard state.exported else { return .noSuchFileOrDirectory }
        if file.attribute == .polarity {
            guard let polarity = PWMPolarity(rawValue: Self.text(bytes)) else { return .invalidArgument }
            if state.enabled, polarity != state.polarity { return .resourceBusy }
            state.polarity = polarity
        } else {
            guard let value = Self.decimal(bytes) else { return .invalidArgument }
            switch file.attribute {
            case .period:
                guard value > 0, value >= state.dutyNanoseconds else { return .invalidArgument }
                state.periodNanoseconds = value
            case .dutyCycle:
                guard value <= state.periodNanoseconds else { return .invalidArgument }
                state.dutyNanoseconds = value
            default:
                guard value <= 1, value == 0 || state.periodNanoseconds > 0 else { return .invalidArgument }
                state.enabled = value == 1
            }
        }
        chips[file.chip][file.channel] = state
        return nil
    }

    public mutating func close(_ fd: CInt) {
        if let slot = slot(fd) { open[slot] = nil }
    }

    public mutating func pause(milliseconds: Int) {}

    /// Descriptors still open.
    public var openDescriptors: Int { open.count { $0 != nil } }
}

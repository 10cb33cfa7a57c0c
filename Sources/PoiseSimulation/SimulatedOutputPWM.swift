import PoiseIO
import SystemPackage

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
    /// Channels by chip number.
    public private(set) var chips: [Int: [Channel]]
    /// Writes so far (each one a `pwrite` on real sysfs).
    public private(set) var writes = 0
    /// When set, every write is logged as `pwmchip0/pwm1/period=20000000`.
    public var recording = false
    public private(set) var log: [String] = []
    /// The next writes fail with this error.
    public var failWrites: Errno? = nil

    var open: [Int: (chip: Int, channel: Int?, attribute: String)] = [:]
    var nextDescriptor: CInt = 100

    /// `channelsPerChip[n]` channels on `pwmchipN` (the Pi's pwm-2chan overlay: one chip, 2).
    /// Gives this value its own copy of every buffer a write touches (a tick then never
    /// copies on write).
    public mutating func makeBuffersUnique() {
        chips = chips.mapValues { $0.map { $0 } }
        open = open.mapValues { $0 }
        log = log.map { $0 }
    }

    public init(root: String = "/sys/class/pwm", channelsPerChip: [Int] = [2]) {
        self.root = root
        var chips: [Int: [Channel]] = [:]
        for (chip, count) in channelsPerChip.enumerated() { chips[chip] = Array(repeating: Channel(), count: count) }
        self.chips = chips
    }

    /// `(chip, channel, attribute)` for a path under the root; channel is nil for chip files.
    func parse(_ path: String) -> (chip: Int, channel: Int?, attribute: String?)? {
        guard path.hasPrefix(root + "/pwmchip") else { return nil }
        let parts = path.dropFirst(root.count + 1).split(separator: "/")
        guard let chip = Int(parts[0].dropFirst("pwmchip".count)), let channels = chips[chip] else { return nil }
        if parts.count == 1 { return (chip, nil, nil) }
        if parts[1].hasPrefix("pwm"), let channel = Int(parts[1].dropFirst(3)) {
            guard channel < channels.count, channels[channel].exported else { return nil }
            guard parts.count <= 3 else { return nil }
            let attribute = parts.count == 3 ? String(parts[2]) : nil
            if let attribute, !["period", "duty_cycle", "enable", "polarity"].contains(attribute) { return nil }
            return (chip, channel, attribute)
        }
        guard parts.count == 2, parts[1] == "export" || parts[1] == "unexport" else { return nil }
        return (chip, nil, String(parts[1]))
    }

    public func exists(_ path: String) -> Bool {
        path == root || parse(path) != nil
    }

    public mutating func openForWriting(_ path: String) -> Result<CInt, Errno> {
        guard let place = parse(path), let attribute = place.attribute else { return .failure(.noSuchFileOrDirectory) }
        let fd = nextDescriptor
        nextDescriptor += 1
        open[Int(fd)] = (place.chip, place.channel, attribute)
        return .success(fd)
    }

    public mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        writes += 1
        if let failure = failWrites { return failure }
        guard let file = open[Int(fd)] else { return .badFileDescriptor }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSuffix("\n")
        if recording {
            log.append("pwmchip\(file.chip)" + (file.channel.map { "/pwm\($0)" } ?? "") + "/\(file.attribute)=\(text)")
        }
        guard let channel = file.channel else {
            guard let number = Int(text), number >= 0, number < chips[file.chip]!.count else { return .invalidArgument }
            let exporting = file.attribute == "export"
            if chips[file.chip]![number].exported == exporting { return exporting ? .resourceBusy : .invalidArgument }
            chips[file.chip]![number] = Channel()
            chips[file.chip]![number].exported = exporting
            return nil
        }
        var state = chips[file.chip]![channel]
        guard state.exported else { return .noSuchFileOrDirectory }
        switch file.attribute {
        case "polarity":
            guard let polarity = PWMPolarity(rawValue: text) else { return .invalidArgument }
            if state.enabled, polarity != state.polarity { return .resourceBusy }
            state.polarity = polarity
        default:
            guard let value = UInt64(text) else { return .invalidArgument }
            switch file.attribute {
            case "period":
                guard value > 0, value >= state.dutyNanoseconds else { return .invalidArgument }
                state.periodNanoseconds = value
            case "duty_cycle":
                guard value <= state.periodNanoseconds else { return .invalidArgument }
                state.dutyNanoseconds = value
            default:
                guard value <= 1, value == 0 || state.periodNanoseconds > 0 else { return .invalidArgument }
                state.enabled = value == 1
            }
        }
        chips[file.chip]![channel] = state
        return nil
    }

    public mutating func close(_ fd: CInt) {
        open[Int(fd)] = nil
    }

    public mutating func pause(milliseconds: Int) {}

    /// Descriptors still open.
    public var openDescriptors: Int { open.count }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

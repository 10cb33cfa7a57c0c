import PoiseHAL

/// GPIO chips for the simulated board, behind the libgpiod seam (``GPIODevice``).
///
/// Records every line's requested flags and level; lines can be pre-held by another
/// consumer (a request then fails with `EBUSY` naming it) and writes can be made to fail.
public struct SimulatedGPIODevice: GPIODevice, Sendable {
    /// One chip: `gpiochipN` with a label, as `gpiodetect` lists it.
    public struct Chip: Sendable, Equatable {
        public var name: String
        public var label: String
        public var lines: UInt32
        public init(name: String, label: String, lines: UInt32) {
            self.name = name
            self.label = label
            self.lines = lines
        }
    }

    /// A requested line's state.
    public struct Line: Sendable, Equatable {
        public var chip: String
        public var offset: UInt32
        public var consumer: String
        public var activeLow: Bool
        public var drive: GPIODrive
        /// Logical level, as set through the seam.
        public var value: Bool
        public var requested: Bool
    }

    public var chips: [Chip]
    /// Lines another consumer holds, by `chip:line` (e.g. `"gpiochip0:17": "sysfs"`).
    public var heldBy: [String: String] = [:]
    /// The next `setValue` calls fail with this error.
    public var failWrites: Errno? = nil
    /// Writes to this requested line (its index, as its handle) fail with EIO: one broken
    /// channel (a rehearsed `output_write_failure`).
    public var failingLine: Int? = nil
    /// `setValue` calls so far.
    public private(set) var writes = 0
    public private(set) var lines: [Line] = []

    /// A Raspberry Pi 5 header chip by default (`pinctrl-rp1`, 54 lines).
    public init(chips: [Chip] = [Chip(name: "gpiochip0", label: "pinctrl-rp1", lines: 54)]) {
        self.chips = chips
    }

    public mutating func requestOutput(_ request: GPIOLineRequest) -> Result<GPIOLineHandle, GPIORequestFailure> {
        let lookup = request.chip
        guard let chip = chips.first(where: {
            $0.name == lookup || "/dev/" + $0.name == lookup || $0.label == lookup || "gpiochip" + lookup == $0.name
        }) else {
            return .failure(GPIORequestFailure(.openChip, errno: .noSuchFileOrDirectory))
        }
        guard request.line < chip.lines else { return .failure(GPIORequestFailure(.getLine, errno: .invalidArgument)) }
        if let holder = heldBy["\(chip.name):\(request.line)"] {
            return .failure(GPIORequestFailure(.requestOutput, errno: .resourceBusy, holder: holder))
        }
        if lines.contains(where: { $0.requested && $0.chip == chip.name && $0.offset == request.line }) {
            return .failure(GPIORequestFailure(.requestOutput, errno: .resourceBusy, holder: request.consumer))
        }
        lines.append(Line(chip: chip.name, offset: request.line, consumer: request.consumer,
                          activeLow: request.activeLow, drive: request.drive, value: request.initialValue, requested: true))
        return .success(GPIOLineHandle(rawValue: lines.count - 1))
    }

    public mutating func setValue(_ handle: GPIOLineHandle, _ value: Bool) -> Errno? {
        writes += 1
        if let failure = failWrites { return failure }
        if handle.rawValue == failingLine { return .ioError }
        guard lines[handle.rawValue].requested else { return .badFileDescriptor }
        lines[handle.rawValue].value = value
        return nil
    }

    public mutating func release(_ handle: GPIOLineHandle) {
        lines[handle.rawValue].requested = false
    }

    /// Gives this value its own copy of every buffer a write touches (a tick then never
    /// copies on write).
    public mutating func makeBuffersUnique() {
        lines = lines.map { $0 }
        heldBy = heldBy.mapValues { $0 }
    }
}

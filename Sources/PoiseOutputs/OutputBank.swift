import PoiseControl
import PoiseFlightCore
import PoiseHAL

/// Every configured output channel, opened at start-up and written once per tick.
///
/// Generic over the kernel seams, so the same code drives real hardware (``LinuxGPIODevice``,
/// ``LinuxPWMFiles``, `LinuxI2CBus`) and the simulated board. A tick's ``write(_:dt:bus:)``
/// touches only channels whose value changed: one `gpiod_line_set_value` per changed line,
/// one `pwrite` per changed sysfs PWM channel, and one I²C transaction covering every changed
/// PCA9685 channel, sent no faster than the PCA9685's own frame rate (it latches new values
/// once per period anyway). The I²C bus is passed in, not owned: it is the sensor's bus.
public struct OutputBank<GPIO: GPIODevice, Files: PWMFileSystem> {
    public let settings: OutputBankSettings
    /// The GPIO seam. The simulated board reads levels back from it and injects faults into
    /// it; replacing it would orphan the open lines.
    public var gpio: GPIO
    /// The sysfs seam, read back and faulted the same way; replacing it orphans descriptors.
    public var files: Files
    /// The PCA9685, when a channel uses it.
    public var pca9685: PCA9685? { hasPCA9685 ? pcaChip : nil }
    /// Plain stored copies, so the tick never loads an optional aggregate.
    @usableFromInline var pcaChip: PCA9685
    @usableFromInline var hasPCA9685: Bool
    /// Named counters: writes made and faults seen.
    public var counters: OutputCounters { _counters }
    @usableFromInline var _counters = OutputCounters()

    var gpioLines: [GPIOOutput?]
    var pwmChannels: [SysfsPWMChannel?]
    @usableFromInline var slots: InlineArray<16, OutputSlot>
    @usableFromInline var count: Int
    /// Wanted counts per PCA9685 channel (written ones, plus those in `pcaPending`).
    @usableFromInline var pcaCounts = InlineArray<16, UInt16>(repeating: 0)
    /// PCA9685 channels changed since the last write, one bit each.
    @usableFromInline var pcaPending: UInt16 = 0
    /// Time since the last PCA9685 write, s.
    @usableFromInline var pcaElapsed: Double = .infinity
    @usableFromInline var pcaFrame: Double

    /// Opens every channel at its safe value; any failure releases what was opened and throws
    /// an error naming the channel and the chip, line or file.
    public init(settings: OutputBankSettings, gpio: GPIO, files: Files, bus: inout some I2CBus) throws(OutputError) {
        var failures: [OutputError] = []
        self.init(settings: settings, gpio: gpio, files: files, bus: &bus, failures: &failures, strict: true)
        if let first = failures.first { throw first }
    }

    /// Opens every channel it can at its safe value, for `poise safe`: a channel that fails is
    /// skipped and reported in `failures`, the rest are still made safe.
    public init(openingWhatItCan settings: OutputBankSettings, gpio: GPIO, files: Files, bus: inout some I2CBus,
                failures: inout [OutputError]) {
        self.init(settings: settings, gpio: gpio, files: files, bus: &bus, failures: &failures, strict: false)
    }

    init(settings: OutputBankSettings, gpio: GPIO, files: Files, bus: inout some I2CBus,
         failures: inout [OutputError], strict: Bool) {
        precondition(settings.channels.count <= OutputSlot.capacity, "at most 16 output channels")
        self.settings = settings
        self.gpio = gpio
        self.files = files
        count = settings.channels.count
        slots = InlineArray(repeating: OutputSlot())
        gpioLines = Array(repeating: nil, count: count)
        pwmChannels = Array(repeating: nil, count: count)
        let chip = settings.usesPCA9685 ? PCA9685(settings: settings.pca9685) : nil
        pcaChip = PCA9685(settings: settings.pca9685)
        hasPCA9685 = chip != nil
        pcaFrame = chip.map { $0.periodNanoseconds * 1e-9 } ?? 0

        for (index, spec) in settings.channels.enumerated() {
            if strict, !failures.isEmpty { break }
            let safe = spec.mapping.safeValue
            var slot = OutputSlot(safe: safe)
            do throws(OutputError) {
                switch spec.hardware {
                case .gpio(var request):
                    request.initialValue = safe != 0
                    let line: GPIOOutput
                    do { line = try GPIOOutput(request, device: &self.gpio) } catch {
                        throw OutputError(channel: spec.name, place: spec.place, reason: error.description)
                    }
                    gpioLines[index] = line
                    slot.kind = .gpio
                    slot.handle = line.handle.rawValue
                case .pwm(let chipNumber, let channel, let period, let polarity):
                    let pwm: SysfsPWMChannel
                    do {
                        pwm = try SysfsPWMChannel(chip: chipNumber, channel: channel, periodNanoseconds: period,
                                                  polarity: polarity, safeDutyNanoseconds: UInt64(safe),
                                                  sysfsRoot: settings.pwmSysfsRoot, files: &self.files)
                    } catch {
                        throw OutputError(channel: spec.name, place: spec.place, reason: error.description)
                    }
                    pwmChannels[index] = pwm
                    slot.kind = .pwm
                    slot.descriptor = pwm.dutyCycleDescriptor
                    slot.period = period
                case .pca9685(let channel):
                    guard (0..<PCA9685Timing.channels).contains(channel) else {
                        throw OutputError(channel: spec.name, place: spec.place, reason: "PCA9685 channels are 0…15")
                    }
                    slot.kind = .pca9685
                    slot.handle = channel
                    pcaCounts[channel] = chip?.counts(highTimeNanoseconds: safe) ?? 0
                }
            } catch {
                failures.append(error)
                continue
            }
            slots[index] = slot
        }
        if let chip, strict ? failures.isEmpty : true {
            do throws(I2CError) {
                try chip.configure(bus: &bus)
                try writeSafePCA9685(chip, bus: &bus)
            } catch {
                failures.append(OutputError(channel: "PCA9685", place: "\(hexByte(chip.settings.address)) on \(bus.path)",
                                            reason: error.description))
                for index in 0..<count where slots[index].kind == .pca9685 { slots[index].kind = .none }
            }
        }
        if strict, !failures.isEmpty {
            _ = release(unexport: true, bus: &bus)
        }
    }

    /// Writes this tick's values, touching only channels that changed. Returns the first
    /// fault (the caller then drives everything safe); the other channels are still written.
    /// Each board's tick gets it specialised for its GPIO, files and bus (the module is built
    /// for cross-module optimisation).
    public mutating func write(_ commands: ChannelCommands, dt: Double, bus: inout some I2CBus) -> OutputFault? {
        var fault: OutputFault? = nil
        for index in 0..<count {
            var slot = slots[index]
            let value = commands[index]
            guard value != slot.last else { continue }
            switch slot.kind {
            case .none:
                continue
            case .gpio:
                _counters.gpioWrites += 1
                if let errno = gpio.setValue(GPIOLineHandle(rawValue: slot.handle), value != 0) {
                    if fault == nil { fault = OutputFault(channel: index, errno: errno) }
                    continue
                }
            case .pwm:
                _counters.pwmWrites += 1
                if let errno = SysfsPWMChannel.writeDuty(min(UInt64(value), slot.period), descriptor: slot.descriptor,
                                                         files: &files) {
                    if fault == nil { fault = OutputFault(channel: index, errno: errno) }
                    continue
                }
            case .pca9685:
                pcaCounts[slot.handle] = pcaChip.counts(highTimeNanoseconds: value)
                pcaPending |= 1 << UInt16(slot.handle)
            }
            slot.last = value
            slots[index] = slot
        }
        pcaElapsed += dt
        // Half a microsecond of slack so a frame that is a whole number of ticks is not missed.
        if pcaPending != 0, hasPCA9685, pcaElapsed + 5e-7 >= pcaFrame {
            let first = pcaPending.trailingZeroBitCount, last = 15 - pcaPending.leadingZeroBitCount
            _counters.pca9685Transactions += 1
            do throws(I2CError) {
                try pcaChip.write(counts: pcaCounts, first: first, last: last, bus: &bus)
                pcaPending = 0
                pcaElapsed = 0
            } catch {
                if fault == nil { fault = OutputFault(channel: pcaBankIndex(slots, count: count, channel: first), errno: error.errno) }
            }
        }
        if fault != nil { _counters.faults += 1 }
        return fault
    }

    /// Every channel to its safe value now (no rate limit); the PCA9685 gets ALL_LED_OFF when
    /// every one of its channels is safe at 0. Returns the first fault; all are attempted.
    public mutating func driveSafe(bus: inout some I2CBus) -> OutputFault? {
        var fault: OutputFault? = nil
        for index in 0..<count {
            var slot = slots[index]
            switch slot.kind {
            case .none, .pca9685:
                break
            case .gpio:
                _counters.gpioWrites += 1
                if let errno = gpio.setValue(GPIOLineHandle(rawValue: slot.handle), slot.safe != 0), fault == nil {
                    fault = OutputFault(channel: index, errno: errno)
                }
            case .pwm:
                _counters.pwmWrites += 1
                if let errno = SysfsPWMChannel.writeDuty(UInt64(slot.safe), descriptor: slot.descriptor, files: &files),
                   fault == nil {
                    fault = OutputFault(channel: index, errno: errno)
                }
            }
            slot.last = slot.safe
            slots[index] = slot
        }
        if hasPCA9685 {
            for index in 0..<count where slots[index].kind == .pca9685 {
                pcaCounts[slots[index].handle] = pcaChip.counts(highTimeNanoseconds: slots[index].safe)
                slots[index].last = slots[index].safe
            }
            do throws(I2CError) {
                try writeSafePCA9685(pcaChip, bus: &bus)
            } catch {
                if fault == nil { fault = OutputFault(channel: pcaBankIndex(slots, count: count, channel: 0), errno: error.errno) }
            }
        }
        if fault != nil { _counters.faults += 1 }
        return fault
    }

    /// Drives everything safe, then releases GPIO lines (at their safe level) and PWM channels
    /// (safe duty; disabled when that is 0; unexported when `unexport`). The PCA9685 keeps its
    /// safe outputs. Returns what could not be done.
    public mutating func release(unexport: Bool, bus: inout some I2CBus) -> [OutputError] {
        var errors: [OutputError] = []
        if let fault = driveSafe(bus: &bus) { errors.append(describe(fault, bus: bus.path)) }
        for index in 0..<count {
            let spec = settings.channels[index]
            if let line = gpioLines[index] {
                line.release(device: &gpio)
                gpioLines[index] = nil
            }
            if let pwm = pwmChannels[index] {
                do { try pwm.release(unexport: unexport, files: &files) } catch {
                    errors.append(OutputError(channel: spec.name, place: spec.place, reason: error.description))
                }
                pwmChannels[index] = nil
            }
            slots[index].kind = slots[index].kind == .pca9685 ? .pca9685 : .none
        }
        return errors
    }

    /// A tick's fault as a message naming the channel.
    public func describe(_ fault: OutputFault, bus: String = "") -> OutputError {
        guard fault.channel < count else {
            return OutputError(channel: "PCA9685", place: bus, reason: "\(fault.errno.description) (\(fault.errno.symbolicName))")
        }
        let spec = settings.channels[fault.channel]
        let reason: String
        if let line = gpioLines[fault.channel] {
            reason = line.error(fault.errno).description
        } else if let pwm = pwmChannels[fault.channel] {
            reason = pwm.dutyError(fault.errno, nanoseconds: UInt64(slots[fault.channel].last)).description
        } else {
            reason = "I²C write to the PCA9685 failed: \(fault.errno.description) (\(fault.errno.symbolicName))"
        }
        return OutputError(channel: spec.name, place: spec.place, reason: reason)
    }

    /// The value each channel was last set to (ns high time or level), in channel order.
    public var lastWritten: ChannelCommands {
        var commands = ChannelCommands(count: count)
        for index in 0..<count { commands[index] = slots[index].last }
        return commands
    }

    /// Whether channel `index` was opened (false after a failure in `openingWhatItCan`).
    public func isOpen(_ index: Int) -> Bool { slots[index].kind != .none }

    // MARK: PCA9685 helpers

    /// Safe counts of every PCA9685 channel in one transaction, or ALL_LED_OFF when all are 0.
    @usableFromInline
    mutating func writeSafePCA9685(_ chip: PCA9685, bus: inout some I2CBus) throws(I2CError) {
        var mask: UInt16 = 0
        var allZero = true
        for index in 0..<count where slots[index].kind == .pca9685 {
            mask |= 1 << UInt16(slots[index].handle)
            if pcaCounts[slots[index].handle] != 0 { allZero = false }
        }
        guard mask != 0 else { return }
        _counters.pca9685Transactions += 1
        if allZero {
            try bus.write(address: chip.settings.address, register: PCA9685Register.allLEDOnLow.rawValue,
                          block: PCA9685.allOffBlock)
        } else {
            try chip.write(counts: pcaCounts, first: mask.trailingZeroBitCount, last: 15 - mask.leadingZeroBitCount, bus: &bus)
        }
        pcaPending = 0
        pcaElapsed = 0
    }
}

/// Writes and faults of an ``OutputBank``.
public struct OutputCounters: Sendable, Equatable {
    /// `gpiod_line_set_value` calls.
    public var gpioWrites = 0
    /// `pwrite`s to `duty_cycle`.
    public var pwmWrites = 0
    /// I²C transactions to the PCA9685 after start-up.
    public var pca9685Transactions = 0
    /// Ticks (or safe drives) with a failed write.
    public var faults = 0
    public init() {}
}

/// One channel's tick state, plain data.
@usableFromInline
struct OutputSlot: Sendable {
    static let capacity = 16
    @usableFromInline enum Kind: UInt8, Sendable { case none, gpio, pwm, pca9685 }
    @usableFromInline var kind: Kind = .none
    /// GPIO handle, or PCA9685 channel.
    @usableFromInline var handle = 0
    /// sysfs `duty_cycle` descriptor.
    @usableFromInline var descriptor: CInt = -1
    /// sysfs period, ns (duty cycles are clamped to it).
    @usableFromInline var period: UInt64 = 0
    /// Last value written (starts at the safe value, which opening wrote).
    @usableFromInline var last: UInt32 = 0
    @usableFromInline var safe: UInt32 = 0

    init() {}
    init(safe: UInt32) {
        self.safe = safe
        last = safe
    }
}

/// The bank index of the channel on PCA9685 channel `channel` (or the first PCA9685 one).
/// Inlinable: the boards' checked ticks in other modules reach it from a fault path, and
/// cross-module optimisation does not export a non-generic function of this size.
@inlinable
func pcaBankIndex(_ slots: InlineArray<16, OutputSlot>, count: Int, channel: Int) -> Int {
    var first = count
    for index in 0..<count where slots[index].kind == .pca9685 {
        if slots[index].handle == channel { return index }
        first = min(first, index)
    }
    return first
}

func hexByte(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

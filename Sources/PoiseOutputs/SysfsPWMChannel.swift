import PoiseHAL

/// The output polarity of a PWM channel (`polarity` in sysfs).
public enum PWMPolarity: String, Sendable, CaseIterable {
    /// High for the duty cycle, low for the rest of the period.
    case normal
    /// Low for the duty cycle, high for the rest.
    case inversed
}

/// One hardware PWM channel through sysfs (`<root>/pwmchipN/pwmM`).
///
/// Opening exports the channel if needed, waits until udev has made its files writable,
/// then writes disable → polarity → duty 0 → period → safe duty → enable, an order the kernel
/// always accepts (it rejects a period shorter than the current duty cycle, and a polarity
/// change while enabled). The `duty_cycle` descriptor stays open: each tick's change is one
/// `pwrite` of decimal text from a stack buffer. Times are nanoseconds, as sysfs takes them.
public struct SysfsPWMChannel: Sendable {
    public let chip: Int
    public let channel: Int
    public let periodNanoseconds: UInt64
    public let polarity: PWMPolarity
    /// The duty cycle at start-up and on release, ns (0 = no pulse; the channel is then
    /// disabled on release).
    public let safeDutyNanoseconds: UInt64
    /// `<root>/pwmchipN/pwmM`.
    public let directory: String
    @usableFromInline let dutyDescriptor: CInt
    let enableDescriptor: CInt

    /// Polls for the exported channel's files: 100 × 10 ms, udev usually needs a few ms.
    public static let writablePolls = 100

    public init(chip: Int, channel: Int, periodNanoseconds: UInt64, polarity: PWMPolarity = .normal,
                safeDutyNanoseconds: UInt64 = 0, sysfsRoot: String = "/sys/class/pwm",
                files: inout some PWMFileSystem) throws(PWMError) {
        let chipDirectory = "\(sysfsRoot)/pwmchip\(chip)"
        let directory = "\(chipDirectory)/pwm\(channel)"
        guard periodNanoseconds > 0, safeDutyNanoseconds <= periodNanoseconds else {
            throw PWMError(path: directory, message:
                "safe duty cycle \(safeDutyNanoseconds) ns must lie within the period \(periodNanoseconds) ns")
        }
        if !files.exists(directory) {
            guard files.exists(chipDirectory) else {
                throw PWMError(path: chipDirectory, message:
                    "no such PWM chip; enable one with `dtoverlay=pwm` (or `pwm-2chan`) in /boot/firmware/config.txt and reboot")
            }
            try Self.write("\(channel)", to: "\(chipDirectory)/export", files: &files)
        }
        // udev changes the group and mode of the new files just after export: poll for them.
        var period: CInt = -1
        var lastError = Errno.noSuchFileOrDirectory
        for poll in 0..<Self.writablePolls {
            if poll > 0 { files.pause(milliseconds: 10) }
            switch files.openForWriting("\(directory)/period") {
            case .success(let fd): period = fd
            case .failure(let errno): lastError = errno
            }
            if period >= 0 { break }
            if lastError != .permissionDenied && lastError != .noSuchFileOrDirectory { break }
        }
        guard period >= 0 else {
            let waited = lastError == .permissionDenied || lastError == .noSuchFileOrDirectory
            throw PWMError(path: "\(directory)/period", message: waited
                ? "not writable \(Self.writablePolls * 10) ms after export: \(lastError.description) (\(lastError.symbolicName)); add the user to group gpio or run with sudo"
                : "cannot open: \(lastError.description) (\(lastError.symbolicName))")
        }
        defer { files.close(period) }
        let duty = try Self.open("\(directory)/duty_cycle", files: &files)
        let enable: CInt
        do { enable = try Self.open("\(directory)/enable", files: &files) } catch {
            files.close(duty)
            throw error
        }
        do {
            try Self.write("0", fd: enable, path: "\(directory)/enable", files: &files)
            // Some chips have no polarity file; normal polarity then needs none.
            if polarity == .inversed || files.exists("\(directory)/polarity") {
                try Self.write(polarity.rawValue, to: "\(directory)/polarity", files: &files)
            }
            try Self.write("0", fd: duty, path: "\(directory)/duty_cycle", files: &files)
            try Self.write("\(periodNanoseconds)", fd: period, path: "\(directory)/period", files: &files)
            try Self.write("\(safeDutyNanoseconds)", fd: duty, path: "\(directory)/duty_cycle", files: &files)
            try Self.write("1", fd: enable, path: "\(directory)/enable", files: &files)
        } catch {
            files.close(duty)
            files.close(enable)
            throw error
        }
        self.chip = chip
        self.channel = channel
        self.periodNanoseconds = periodNanoseconds
        self.polarity = polarity
        self.safeDutyNanoseconds = safeDutyNanoseconds
        self.directory = directory
        self.dutyDescriptor = duty
        self.enableDescriptor = enable
    }

    /// Writes the duty cycle (high time with normal polarity), ns, clamped to the period:
    /// one `pwrite`, no allocation (checked where it is specialised, see OutputBank+Linux).
    /// Returns the error instead of throwing (tick path).
    @inlinable
    public func setDuty(nanoseconds: UInt64, files: inout some PWMFileSystem) -> Errno? {
        Self.writeDuty(min(nanoseconds, periodNanoseconds), descriptor: dutyDescriptor, files: &files)
    }

    /// The `duty_cycle` descriptor, for owners that keep it in plain data for the tick.
    public var dutyCycleDescriptor: CInt { dutyDescriptor }

    /// One `pwrite` of `nanoseconds` as decimal text to an open `duty_cycle` descriptor.
    @inlinable
    public static func writeDuty(_ nanoseconds: UInt64, descriptor: CInt, files: inout some PWMFileSystem) -> Errno? {
        var text = DecimalText(nanoseconds)
        return text.withBytes { files.write(descriptor, $0) }
    }

    /// The error `setDuty` returned, as a message (outside the tick).
    public func dutyError(_ errno: Errno, nanoseconds: UInt64) -> PWMError {
        PWMError(path: "\(directory)/duty_cycle", writing: "\(nanoseconds)", errno: errno)
    }

    /// Back to the safe duty cycle; disabled when that is 0 (no pulse at all).
    public func driveSafe(files: inout some PWMFileSystem) throws(PWMError) {
        if let errno = setDuty(nanoseconds: safeDutyNanoseconds, files: &files) {
            throw dutyError(errno, nanoseconds: safeDutyNanoseconds)
        }
        if safeDutyNanoseconds == 0 {
            try Self.write("0", fd: enableDescriptor, path: "\(directory)/enable", files: &files)
        }
    }

    /// Drives the safe value, closes the descriptors and, when `unexport` is set, unexports
    /// the channel. Without unexporting, a channel with a safe pulse keeps pulsing after the
    /// process ends (what `poise safe` wants); the kernel may disable an unexported channel.
    public func release(unexport: Bool, files: inout some PWMFileSystem) throws(PWMError) {
        defer {
            files.close(dutyDescriptor)
            files.close(enableDescriptor)
        }
        try driveSafe(files: &files)
        if unexport {
            let chipDirectory = String(directory.dropLast("/pwm\(channel)".count))
            try Self.write("\(channel)", to: "\(chipDirectory)/unexport", files: &files)
        }
    }

    static func open(_ path: String, files: inout some PWMFileSystem) throws(PWMError) -> CInt {
        switch files.openForWriting(path) {
        case .success(let fd): return fd
        case .failure(let errno): throw PWMError(path: path, opening: errno)
        }
    }

    static func write(_ text: String, fd: CInt, path: String, files: inout some PWMFileSystem) throws(PWMError) {
        var line = text + "\n"
        let failure = line.withUTF8 { files.write(fd, UnsafeRawBufferPointer($0)) }
        if let errno = failure { throw PWMError(path: path, writing: text, errno: errno) }
    }

    static func write(_ text: String, to path: String, files: inout some PWMFileSystem) throws(PWMError) {
        let fd = try open(path, files: &files)
        defer { files.close(fd) }
        try write(text, fd: fd, path: path, files: &files)
    }
}

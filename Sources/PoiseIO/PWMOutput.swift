import SystemPackage

/// A failed PWM sysfs operation, naming the file.
public struct PWMError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }
}

/// One PWM channel driven through sysfs (`/sys/class/pwm/pwmchipN/pwmM`).
///
/// The channel is exported if needed, configured with `period` and the safe duty cycle, and
/// enabled. On release (explicit or when destroyed) it returns to the safe duty cycle and
/// is disabled. `sysfsRoot` is injectable so tests can use a temporary directory.
/// Times are in nanoseconds, as sysfs expects.
public struct PWMOutput: ~Copyable {
    public let chip: Int
    public let channel: Int
    public let periodNanoseconds: UInt64
    /// The duty cycle set at start-up and on release, in nanoseconds (often 0 = off).
    public let safeDutyNanoseconds: UInt64
    /// The channel directory, for example `/sys/class/pwm/pwmchip0/pwm0`.
    public let directory: String

    public init(chip: Int, channel: Int, periodNanoseconds: UInt64, safeDutyNanoseconds: UInt64 = 0,
                sysfsRoot: String = "/sys/class/pwm") throws(PWMError) {
        let chipDirectory = "\(sysfsRoot)/pwmchip\(chip)"
        let directory = "\(chipDirectory)/pwm\(channel)"
        guard safeDutyNanoseconds <= periodNanoseconds, periodNanoseconds > 0 else {
            throw PWMError(path: directory, message:
                "safe duty cycle \(safeDutyNanoseconds) ns must lie within the period \(periodNanoseconds) ns")
        }
        if !Self.exists(directory) {
            guard Self.exists(chipDirectory) else {
                throw PWMError(path: chipDirectory, message:
                    "no such PWM chip; enable one with `dtoverlay=pwm` (or `pwm-2chan`) in /boot/firmware/config.txt")
            }
            try Self.write("\(channel)", to: "\(chipDirectory)/export")
            guard Self.exists(directory) else {
                throw PWMError(path: directory, message: "exporting channel \(channel) did not create the directory")
            }
        }
        // Duty first: the kernel rejects a period shorter than the current duty cycle.
        try Self.write("0", to: "\(directory)/duty_cycle")
        try Self.write("\(periodNanoseconds)", to: "\(directory)/period")
        try Self.write("\(safeDutyNanoseconds)", to: "\(directory)/duty_cycle")
        try Self.write("1", to: "\(directory)/enable")
        self.chip = chip
        self.channel = channel
        self.periodNanoseconds = periodNanoseconds
        self.safeDutyNanoseconds = safeDutyNanoseconds
        self.directory = directory
    }

    /// Sets the duty cycle in nanoseconds (at most the period).
    public func setDuty(nanoseconds: UInt64) throws(PWMError) {
        guard nanoseconds <= periodNanoseconds else {
            throw PWMError(path: "\(directory)/duty_cycle", message:
                "duty cycle \(nanoseconds) ns exceeds the period \(periodNanoseconds) ns")
        }
        try Self.write("\(nanoseconds)", to: "\(directory)/duty_cycle")
    }

    /// Sets the duty cycle as a fraction of the period, clamped to 0…1.
    public func setDuty(fraction: Double) throws(PWMError) {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        try setDuty(nanoseconds: UInt64((clamped * Double(periodNanoseconds)).rounded()))
    }

    /// Returns to the safe duty cycle and disables the channel.
    public consuming func release() {}

    deinit {
        try? Self.write("\(safeDutyNanoseconds)", to: "\(directory)/duty_cycle")
        try? Self.write("0", to: "\(directory)/enable")
    }

    static func exists(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly) else { return false }
        try? fd.close()
        return true
    }

    static func write(_ text: String, to path: String) throws(PWMError) {
        do {
            let fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.truncate, .closeOnExec])
            try fd.closeAfter { _ = try fd.writeAll((text + "\n").utf8) }
        } catch let errno as Errno {
            var message = "cannot write \"\(text)\": \(errno.description) (\(errno.symbolicName))"
            if errno == .permissionDenied { message += "; add the user to group gpio or run with sudo" }
            throw PWMError(path: path, message: message)
        } catch {
            throw PWMError(path: path, message: "cannot write \"\(text)\": \(error)")
        }
    }
}

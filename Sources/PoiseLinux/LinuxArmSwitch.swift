import CGPIOD
import CI2C
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseControl
import PoiseFlightCore
import PoiseHAL
import PoiseThreads

/// The arming switch on a Linux board: one GPIO input requested through libgpiod v1.6 with
/// edge events (active level and bias as configured), watched by a thread of its own —
/// never the real-time one — that debounces the edges (``SwitchDebouncer``) and hands the
/// level to the tick through an ``ArmSwitchState``.
public final class LinuxArmSwitch: @unchecked Sendable {
    public typealias Bias = GPIOBias

    /// What went wrong requesting the switch's line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ what: String, chip: String, line: UInt32) {
            description = "arming switch (safety.switch): cannot \(what) \(chip) line \(line): \(Errno(rawValue: poise_errno()))"
        }
    }

    public let state: ArmSwitchState
    let chip: OpaquePointer
    let line: OpaquePointer
    let debounce: Double
    let thread = WorkerThread(name: "poise-armswitch")

    /// Requests the line; the error names the chip and line.
    public init(chip name: String, line offset: UInt32, activeLow: Bool, bias: Bias, debounce: Double,
                state: ArmSwitchState) throws(Failure) {
        guard let chip = gpiod_chip_open_lookup(name) else {
            throw Failure("open the chip of", chip: name, line: offset)
        }
        guard let line = gpiod_chip_get_line(chip, offset) else {
            let failure = Failure("get", chip: name, line: offset)
            gpiod_chip_close(chip)
            throw failure
        }
        var flags: CInt = 0
        if activeLow { flags |= CInt(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        switch bias {
        case .asIs: break
        case .disable: flags |= CInt(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .pullUp: flags |= CInt(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= CInt(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        }
        guard gpiod_line_request_both_edges_events_flags(line, "poise-arm-switch", flags) == 0 else {
            let failure = Failure("request edge events of", chip: name, line: offset)
            gpiod_chip_close(chip)
            throw failure
        }
        self.chip = chip
        self.line = line
        self.debounce = debounce
        self.state = state
        state.set(gpiod_line_get_value(line) == 1)
    }

    deinit {
        stop()
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }

    /// Starts the watcher thread.
    public func start() {
        thread.start { [self] in watch() }
    }

    /// Stops and joins the watcher (within its 100 ms poll).
    public func stop() {
        thread.stop()
    }

    func watch() {
        let now = { Double(monotonicNanoseconds()) * 1e-9 }
        var debouncer = SwitchDebouncer(holdTime: debounce, initial: state.read(), at: now())
        while !thread.stopRequested {
            // Wake at the next edge, when a pending level settles, or every 100 ms to see a stop.
            let wait = min(0.1, max(0, (debouncer.settlesAt ?? .infinity) - now()))
            var timeout = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
            let ready = gpiod_line_event_wait(line, &timeout)
            if ready < 0 { usleep(100_000); continue }
            if ready == 1 {
                var event = gpiod_line_event()
                // Drain the edge; the level is read afresh (events can be merged by the kernel).
                _ = gpiod_line_event_read(line, &event)
            }
            let value = gpiod_line_get_value(line)
            if value >= 0 { state.set(debouncer.update(value == 1, at: now())) }
        }
    }
}

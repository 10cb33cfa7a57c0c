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

/// The wheel encoders on a Linux board: each wheel's A and B lines requested through
/// libgpiod v1.6 for both edges, read by a thread of its own — never the real-time one —
/// that merges each wheel's events by their kernel timestamps, decodes them
/// (``QuadratureDecoder``) and hands the counts to the tick through a ``WheelEncoderState``.
public final class LinuxWheelEncoders: @unchecked Sendable {
    /// What went wrong requesting a line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ what: String, chip: String, line: UInt32? = nil, errno: Errno? = nil) {
            description = "wheel encoders (controller.balance.encoders): cannot \(what) \(chip)"
                + (line.map { " line \($0)" } ?? "") + (errno.map { ": \($0)" } ?? "")
        }
    }

    public let state: WheelEncoderState
    let chip: OpaquePointer
    /// Left A, left B, right A, right B.
    let lines: [OpaquePointer]
    var descriptors: [pollfd]
    var decoders: [QuadratureDecoder]
    let thread = WorkerThread(name: "poise-encoders")
    /// Events read per line per wake-up (more wait for the next).
    static let batch = 64
    let events: UnsafeMutablePointer<gpiod_line_event>

    /// Requests the four lines; the error names the chip and line.
    public init(chip name: String, left: (a: UInt32, b: UInt32), right: (a: UInt32, b: UInt32),
                state: WheelEncoderState) throws(Failure) {
        let offsets = [left.a, left.b, right.a, right.b]
        guard Set(offsets).count == 4 else {
            throw Failure("use one line for two channels on", chip: name)
        }
        guard let chip = name.withCString({ system_gpiod_chip_open_lookup($0) }) else {
            throw Failure("open the chip", chip: name, errno: Errno(rawValue: poise_errno()))
        }
        var lines: [OpaquePointer] = []
        var descriptors: [pollfd] = []
        for offset in offsets {
            var requested = false
            if let line = system_gpiod_chip_get_line(chip, offset) {
                var config = gpiod_line_request_config()
                config.request_type = CInt(GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES)
                requested = "poise-wheel-encoder".withCString { consumer in
                    config.consumer = consumer
                    return system_gpiod_line_request(line, &config, 0) == 0
                }
                let fd = requested ? system_gpiod_line_event_get_fd(line) : -1
                if requested && fd >= 0 {
                    lines.append(line)
                    descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                    continue
                }
            }
            let failure = Failure(requested ? "watch the edges of" : "request edge events of", chip: name, line: offset,
                                  errno: Errno(rawValue: poise_errno()))
            for line in lines { system_gpiod_line_release(line) }
            system_gpiod_chip_close(chip)
            throw failure
        }
        self.chip = chip
        self.lines = lines
        self.descriptors = descriptors
        self.state = state
        let level = { (line: OpaquePointer) in system_gpiod_line_get_value(line) == 1 }
        decoders = [QuadratureDecoder(a: level(lines[0]), b: level(lines[1])),
                    QuadratureDecoder(a: level(lines[2]), b: level(lines[3]))]
        events = .allocate(capacity: 2 * Self.batch)
        state.set(left: 0, right: 0)
    }

    deinit {
        stop()
        for line in lines { system_gpiod_line_release(line) }
        system_gpiod_chip_close(chip)
        events.deallocate()
    }

    /// Edges lost so far, both wheels (found from the edge after each).
    public var missedEdges: Int { decoders[0].missedEdges + decoders[1].missedEdges }

    /// Starts the reader thread.
    public func start() {
        thread.start { [self] in
            while !thread.stopRequested { pump(timeoutMilliseconds: 100) }
        }
    }

    /// Stops and joins the reader (within its 100 ms poll).
    public func stop() {
        thread.stop()
    }

    /// Waits up to `timeoutMilliseconds` for edges, decodes every pending one and hands the
    /// counts over. The reader thread's one step (tests call it under a ``SyscallMock``).
    public func pump(timeoutMilliseconds: CInt) {
        let ready = descriptors.withUnsafeMutableBufferPointer { system_poll($0.baseAddress!, $0.count, timeoutMilliseconds) }
        if ready < 0 { if poise_errno() != EINTR { usleep(100_000) }; return }
        guard ready > 0 else { return }
        for wheel in 0..<2 where descriptors[2 * wheel].revents != 0 || descriptors[2 * wheel + 1].revents != 0 {
            decode(wheel: wheel)
        }
        state.set(left: decoders[0].count, right: decoders[1].count)
    }

    /// Reads both channels' pending events of one wheel and feeds them in time order.
    func decode(wheel: Int) {
        let a = read(line: 2 * wheel, into: events)
        let b = read(line: 2 * wheel + 1, into: events + Self.batch)
        var i = 0, j = 0
        while i < a || j < b {
            let takeA = j >= b || (i < a && !Self.isBefore(events[Self.batch + j].ts, events[i].ts))
            if takeA {
                decoders[wheel].edgeOnA(to: events[i].event_type == CInt(GPIOD_LINE_EVENT_RISING_EDGE))
                i += 1
            } else {
                decoders[wheel].edgeOnB(to: events[Self.batch + j].event_type == CInt(GPIOD_LINE_EVENT_RISING_EDGE))
                j += 1
            }
        }
    }

    func read(line index: Int, into buffer: UnsafeMutablePointer<gpiod_line_event>) -> Int {
        guard descriptors[index].revents != 0 else { return 0 }
        return max(0, Int(system_gpiod_line_event_read_multiple(lines[index], buffer, CUnsignedInt(Self.batch))))
    }

    static func isBefore(_ x: timespec, _ y: timespec) -> Bool {
        x.tv_sec < y.tv_sec || (x.tv_sec == y.tv_sec && x.tv_nsec < y.tv_nsec)
    }
}

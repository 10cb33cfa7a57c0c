#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseThreads

/// A gamepad read through Linux evdev on a thread of its own — never the real-time one —
/// handing the sticks and the arm and disarm presses to a ``Sink`` (the loop's mailbox).
///
/// The device is found by path or by name (``GamepadSettings``); its axes' ranges are asked
/// once per connection. evdev reports only changes, so while connected the sticks are handed
/// on at every report and at least every ``republishInterval``. A device that goes away
/// (`ENODEV`, a hang-up) stops the sticks at once — the loop's setpoint timeout then fails
/// safe — and is looked for again with backoff until it comes back.
public final class GamepadReader: @unchecked Sendable {
    /// Where the reader's results go; each is called on the reader's thread.
    public struct Sink: Sendable {
        public var sticks: @Sendable (ManualControl) -> Void
        /// true: the arm button was pressed; false: the disarm button.
        public var arm: @Sendable (Bool) -> Void
        public var log: @Sendable (String) -> Void

        public init(sticks: @escaping @Sendable (ManualControl) -> Void, arm: @escaping @Sendable (Bool) -> Void,
                    log: @escaping @Sendable (String) -> Void) {
            self.sticks = sticks
            self.arm = arm
            self.log = log
        }
    }

    /// The longest time between two hand-offs while connected, s: sticks held still send
    /// no events, and must not look like a lost gamepad.
    public static let republishInterval = 0.05

    public let settings: GamepadSettings
    public let directory: String
    let sink: Sink
    let clock: @Sendable () -> Double
    /// The open device and its decoder; nil while disconnected. Touched by one thread at a
    /// time: the caller until ``start()``, then the reader's thread.
    public private(set) var device: EvdevDevice?
    public private(set) var decoder: GamepadDecoder?
    var lastPublished = -Double.infinity
    var backoff = I2CReopenBackoff(initial: 0.25, maximum: 2)
    var lastProblem: String?
    var events: [EvdevEvent] = []
    let thread = WorkerThread(name: "poise-gamepad")

    /// `directory` is where devices are looked for by name; `clock` is monotonic seconds.
    public init(settings: GamepadSettings, directory: String = "/dev/input",
                clock: @escaping @Sendable () -> Double = { Double(monotonicNanoseconds()) * 1e-9 }, sink: Sink) {
        self.settings = settings
        self.directory = directory
        self.clock = clock
        self.sink = sink
    }

    deinit { stop() }

    public var isConnected: Bool { device != nil }

    /// Opens the gamepad and reads its axes' ranges; throws why it cannot be used.
    public func connect() throws(GamepadError) {
        let device = try Self.open(settings, in: directory)
        let axes = device.absoluteAxes
        guard !axes.isEmpty else { throw .notAGamepad(path: device.path, name: device.name) }
        var ranges: [UInt16: EvdevAxisRange] = [:]
        let sticks = [("x", settings.x), ("y", settings.y), ("z", settings.z), ("r", settings.r)]
        for (stick, mapping) in sticks {
            guard let code = mapping.axis.code else { continue }
            let missing = GamepadError.missingAxis(path: device.path, name: device.name, key: "input.gamepad.\(stick)_axis",
                                                   axis: mapping.axis.kernelName, available: Self.axisNames(axes))
            guard axes.contains(code), case .success(let range) = device.range(of: code) else { throw missing }
            ranges[code] = range
        }
        decoder = GamepadDecoder(settings: settings, ranges: ranges, held: device.heldKeys())
        self.device = device
        lastPublished = -.infinity
    }

    /// The device the settings name: the path, or the first event device of that name.
    public static func open(_ settings: GamepadSettings, in directory: String) throws(GamepadError) -> EvdevDevice {
        if let path = settings.device { return try EvdevDevice(path: path) }
        let name = settings.name ?? ""
        let entries: [EvdevDirectory.Entry]
        switch EvdevDirectory.list(directory) {
        case .failure(let errno): throw .cannotList(directory: directory, errno: errno)
        case .success(let list): entries = list
        }
        if let match = entries.first(where: { $0.name == name }) { return try EvdevDevice(path: match.path) }
        // The pad may be one of the devices this user may not read: say that, not "not found".
        if let denied = entries.lazy.compactMap({ $0.problem }).first(where: {
            if case .cannotOpen(_, let errno) = $0 { errno == .permissionDenied } else { false }
        }) { throw denied }
        throw .notFound(name: name, available: entries.compactMap { $0.name })
    }

    /// One turn: connected, waits up to `wait` ms for events and hands on what they mean;
    /// disconnected, tries to connect again when the backoff says so.
    public func step(wait: Int32) {
        guard let device, decoder != nil else {
            reconnect()
            return
        }
        switch device.wait(milliseconds: wait) {
        case .failure(let errno):
            disconnect(errno)
            return
        case .success(let revents) where revents != 0:
            if case .failure(let errno) = device.read(into: &events) {
                disconnect(errno)
                return
            }
            for event in events { handle(event, device) }
            if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                disconnect(.operationNotSupportedByDevice)
                return
            }
        case .success:
            break
        }
        if clock() - lastPublished >= Self.republishInterval { publish() }
    }

    func handle(_ event: EvdevEvent, _ device: EvdevDevice) {
        switch decoder!.apply(event) {
        case .none: break
        case .report: publish()
        case .armPressed: sink.arm(true)
        case .disarmPressed: sink.arm(false)
        case .resynchronise:
            var values: [UInt16: Int32] = [:]
            for stick in [settings.x, settings.y, settings.z, settings.r] {
                if let code = stick.axis.code, case .success(let range) = device.range(of: code) { values[code] = range.value }
            }
            decoder!.resynchronise(values: values, held: device.heldKeys())
            publish()
        }
    }

    func publish() {
        guard let decoder else { return }
        sink.sticks(decoder.control)
        lastPublished = clock()
    }

    func disconnect(_ errno: Errno) {
        guard let device else { return }
        sink.log("gamepad \"\(device.name)\" (\(device.path)) disconnected: \(errno.description) (\(errno.symbolicName)); "
            + "no more sticks, so the loop's setpoint timeout fails safe; looking for it again "
            + (settings.device.map { "at \($0)" } ?? "by name"))
        self.device = nil
        decoder = nil
        backoff = I2CReopenBackoff(initial: backoff.initial, maximum: backoff.maximum)
        lastProblem = nil
    }

    func reconnect() {
        let now = clock()
        guard backoff.shouldTry(failing: true, at: now) else { return }
        backoff.tried(at: now)
        do {
            try connect()
            sink.log("gamepad \"\(device!.name)\" (\(device!.path)) connected again (try \(backoff.attempts))")
            backoff = I2CReopenBackoff(initial: backoff.initial, maximum: backoff.maximum)
            publish()
        } catch {
            if error.description != lastProblem {
                lastProblem = error.description
                sink.log("\(error); trying again every \(backoff.maximum) s at most")
            }
        }
    }

    /// Starts the reader's thread (connect first).
    public func start() {
        thread.start { [self] in
            while !thread.stopRequested {
                let connected = isConnected
                step(wait: 50)
                if !connected { usleep(50_000) }
            }
        }
    }

    /// Stops and joins the thread (within its 50 ms wait).
    public func stop() {
        thread.stop()
    }

    static func axisNames(_ codes: Set<UInt16>) -> [String] {
        codes.sorted().map { code in
            GamepadAxis.allCases.first { $0.code == code }?.kernelName ?? "ABS_\(code)"
        }
    }
}

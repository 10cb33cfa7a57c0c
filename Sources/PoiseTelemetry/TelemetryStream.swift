import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath

/// Turns tick records into MAVLink frames at the configured rates.
///
/// Rates follow the records' sensor time, not the wall clock, so the same records give the
/// same frames (deterministic, testable); a live loop's or a real-time replay's sensor time
/// runs with the wall clock anyway. Time going backwards (a new stream) restarts the schedule.
public struct TelemetryStream: Sendable {
    public let settings: TelemetrySettings
    public private(set) var framer: MAVLinkFramer
    var statistics = LoopStatistics()
    /// Next due sensor time per message group, s; meaningful once `started`.
    var due = [Double](repeating: 0, count: Group.allCases.count)
    var started = false
    var lastTime = -Double.infinity
    var magnetometerSeen = false
    /// Records the producer could not queue (ring full), reported in SYS_STATUS.
    public var droppedRecords: UInt64 = 0
    /// A failsafe since the last HEARTBEAT (so one shorter than a heartbeat period is still
    /// reported CRITICAL), and whether it latched.
    var failedSafeSinceHeartbeat = false
    var latchedFailsafe = false
    /// Id of the last long STATUSTEXT (shared by its pieces).
    public var textID: UInt16 = 0
    /// Signs every frame when the link has a key.
    public var signer: MAVLinkSigner? {
        didSet { framer.incompatFlags = signer == nil ? 0 : MAVLinkFramer.signedFlag }
    }
    /// Wall-clock time for signatures, s since 1970 (only read when signing).
    public var unixTime: @Sendable () -> Double = { 0 }
    var buffer = [UInt8](repeating: 0, count: MAVLinkFramer.maximumFrameLength + MAVLinkFramer.signatureLength)

    enum Group: Int, CaseIterable { case heartbeat, attitude, imu, outputs, status }

    public init(settings: TelemetrySettings) {
        self.settings = settings
        framer = MAVLinkFramer(systemID: settings.systemID, componentID: settings.componentID)
    }

    func rate(_ group: Group) -> Double {
        switch group {
        case .heartbeat: settings.heartbeatHz
        case .attitude: settings.attitudeHz
        case .imu: settings.imuHz
        case .outputs: settings.outputsHz
        case .status: settings.statusHz
        }
    }

    /// Feeds one record; `emit` receives each frame due now (valid only during the call).
    public mutating func process(_ record: TickRecord, emit: (UnsafeRawBufferPointer) -> Void) {
        statistics.add(latenessNanoseconds: record.latenessNanoseconds, computeNanoseconds: record.computeNanoseconds, time: record.time)
        if record.magnetometer.x.isFinite { magnetometerSeen = true }
        if record.time < lastTime || !started {
            for i in due.indices { due[i] = record.time }
            started = true
        }
        lastTime = record.time
        if record.armState == .failsafe {
            failedSafeSinceHeartbeat = true
            latchedFailsafe = record.eventReason.latches || latchedFailsafe
        }
        // Every arming transition, with its reason, as it happens (not at a message rate).
        if record.eventReason != .none {
            textID = textID == .max ? 1 : textID + 1
            for piece in TelemetryMessages.transitionText(record, id: textID) { frame(piece, emit) }
        }
        var heartbeatSent = false
        for group in Group.allCases {
            let hz = rate(group)
            // 1 µs of slack: a sum of periods must not miss a tick that is due on paper.
            guard hz > 0, record.time + 1e-6 >= due[group.rawValue] else { continue }
            let period = 1 / hz
            due[group.rawValue] += period
            // Fallen more than a period behind (a gap in the records): restart from now.
            if due[group.rawValue] <= record.time { due[group.rawValue] = record.time + period }
            send(group, record, emit)
            if group == .heartbeat { heartbeatSent = true }
        }
        // The run's last tick: one more HEARTBEAT with the state it ends in, so a ground
        // station does not keep showing the last one it saw (armed) after the run ended.
        if record.stopRequested, !heartbeatSent, settings.heartbeatHz > 0 {
            send(.heartbeat, record, emit)
        }
    }

    mutating func send(_ group: Group, _ record: TickRecord, _ emit: (UnsafeRawBufferPointer) -> Void) {
        let ms = TelemetryMessages.milliseconds(record.time)
        switch group {
        case .heartbeat:
            frame(TelemetryMessages.heartbeat(record, failedSafe: failedSafeSinceHeartbeat, latched: latchedFailsafe), emit)
            failedSafeSinceHeartbeat = false
            if let epoch = settings.unixTimeAtSensorZero {
                var time = SystemTime()
                time.timeBootMs = ms
                time.timeUnixUsec = UInt64(max(0, ((epoch + record.time) * 1e6).rounded()))
                frame(time, emit)
            }
        case .attitude:
            frame(TelemetryMessages.attitude(record, world: settings.world), emit)
            frame(TelemetryMessages.attitudeQuaternion(record, world: settings.world), emit)
        case .imu:
            frame(TelemetryMessages.scaledIMU(record), emit)
        case .outputs:
            frame(TelemetryMessages.servoOutputRaw(record, levelChannels: settings.levelChannels), emit)
        case .status:
            let summary = statistics.take()
            frame(TelemetryMessages.sysStatus(record, summary: summary, magnetometer: magnetometerSeen, dropped: droppedRecords), emit)
            for value in TelemetryMessages.loopValues(summary, record: record, timeBootMs: ms) { frame(value, emit) }
        }
    }

    /// Frames one message (a reply of the receive path, or the stream's own), signed when the
    /// link has a key; `emit` sees the bytes during the call.
    public mutating func frame<M: MAVLinkMessage>(_ message: M, _ emit: (UnsafeRawBufferPointer) -> Void) {
        var framer = self.framer
        var signer = self.signer
        let now = signer == nil ? 0 : unixTime()
        buffer.withUnsafeMutableBytes { raw in
            var length = framer.encode(message, into: raw)
            if signer != nil { length = signer!.sign(raw, length: length, unixTime: now) }
            emit(UnsafeRawBufferPointer(rebasing: raw[0 ..< length]))
        }
        self.framer = framer
        if signer != nil { self.signer = signer }
    }
}

import PoiseTelemetry

/// Folds decoded MAVLink frames into the newest ``ViewSnapshot``.
///
/// Whatever arrives, the snapshot stays encodable and small: values that are not finite are
/// dropped (JSON has no NaN), and at most ``maximumNamedValues`` NAMED_VALUE_FLOAT names are
/// kept, the least recently updated going first.
public struct ViewState: Sendable {
    /// Names kept from NAMED_VALUE_FLOAT. Poise sends eight; the rest of the room is for other
    /// senders on the same port.
    public static let maximumNamedValues = 32

    public private(set) var snapshot = ViewSnapshot()
    var lastSequence: [Int: UInt8] = [:]
    /// Kept names, least recently updated first.
    var valueOrder: [String] = []
    /// The sender of the newest attitude, to notice when another one takes over.
    var attitudeSource: Int? = nil
    /// Whether frames reach ``apply(_:receivedAt:)`` only after a signature check.
    public var verifiesSignatures = false
    /// Receive times (ms) of recent jumps back in a source's sequence or clock: one is a
    /// restart; ``duplicateJumps`` within ``duplicateWindowMs`` are two senders interleaving.
    var backwardJumps: [Double] = []
    var duplicateUntil = -Double.infinity
    static let duplicateJumps = 3
    static let duplicateWindowMs = 2000.0
    /// How long the flag stays up after the last interleaving seen, ms.
    static let duplicateHoldMs = 5000.0

    public init() {}

    /// Counts a frame the signature check refused.
    public mutating func refuse(_ reason: String) {
        snapshot.refusedFrames += 1
        snapshot.lastRefusal = reason
    }

    /// Notes a jump back in a source's sequence or clock at `time` (ms).
    mutating func noteBackwardJump(at time: Double) {
        backwardJumps.append(time)
        backwardJumps.removeAll { $0 < time - Self.duplicateWindowMs }
        if backwardJumps.count >= Self.duplicateJumps { duplicateUntil = time + Self.duplicateHoldMs }
    }

    /// Applies one frame; returns true when it completes a moment worth drawing (an
    /// ATTITUDE_QUATERNION, the highest-rate message, carries the tick's attitude).
    public mutating func apply(_ frame: MAVLinkFrame, receivedAt: Double) -> Bool {
        snapshot.frames += 1
        let source = Int(frame.systemID) << 8 | Int(frame.componentID)
        if let last = lastSequence[source] {
            let gap = Int(frame.sequence &- last &- 1)
            // A big jump backwards is more likely a restarted sender than 200 lost frames.
            if gap < 128 { snapshot.lostFrames += gap } else { noteBackwardJump(at: receivedAt) }
        }
        lastSequence[source] = frame.sequence
        snapshot.systemID = Int(frame.systemID)
        snapshot.signing = verifiesSignatures ? "verified" : frame.signature != nil ? "signed, not verified" : "unsigned"
        snapshot.duplicateSystem = receivedAt < duplicateUntil
        switch frame.packet {
        case .heartbeat(let m):
            snapshot.arm = Int(m.customMode & 0xFF)
            snapshot.flags = Int((m.customMode >> 8) & 0xFFFF)
        case .sysStatus(let m):
            snapshot.sensorsPresent = Int(m.sensorsPresent)
            snapshot.sensorsHealthy = Int(m.sensorsHealth)
            snapshot.load = Double(m.load) / 10
        case .systemTime(let m):
            snapshot.unixOffsetMs = Double(m.timeUnixUsec) / 1000 - Double(m.timeBootMs)
        case .attitude(let m):
            let euler = [m.roll, m.pitch, m.yaw], rates = [m.rollSpeed, m.pitchSpeed, m.yawSpeed]
            guard allFinite(euler + rates) else { return dropNonFinite() }
            snapshot.euler = euler
            snapshot.rates = rates
        case .attitudeQuaternion(let m):
            let q = [m.q1, m.q2, m.q3, m.q4], rates = [m.rollSpeed, m.pitchSpeed, m.yawSpeed]
            guard allFinite(q + rates) else { return dropNonFinite() }
            let time = Double(m.timeBootMs) / 1000
            // Another sender, or the same one started again: the wall-clock offset of the old
            // one's SYSTEM_TIME says nothing about the new clock.
            if attitudeSource.map({ $0 != source }) == true || time < snapshot.time { snapshot.unixOffsetMs = nil }
            if attitudeSource == source && time < snapshot.time { noteBackwardJump(at: receivedAt) }
            snapshot.duplicateSystem = receivedAt < duplicateUntil
            attitudeSource = source
            snapshot.q = q
            snapshot.rates = rates
            snapshot.time = time
            snapshot.received = receivedAt
            return true
        case .scaledIMU(let m):
            snapshot.acc = [Int(m.xacc), Int(m.yacc), Int(m.zacc)]
            snapshot.gyro = [Int(m.xgyro), Int(m.ygyro), Int(m.zgyro)]
            snapshot.mag = [Int(m.xmag), Int(m.ymag), Int(m.zmag)]
        case .servoOutputRaw(let m):
            // All 16 slots, zeros included: a channel at 0 is a safe output, not a missing one
            // (the page decides how many channels to draw).
            var servo: [Int] = []
            for i in 0 ..< 16 { servo.append(Int(m.servo[i])) }
            snapshot.servo = servo
        case .namedValueFloat(let m):
            let name = m.name
            guard m.value.isFinite else {
                remove(name)
                return dropNonFinite()
            }
            remember(name)
            snapshot.values[name] = m.value
        case .paramRequestRead, .paramRequestList, .paramValue, .paramSet, .manualControl, .commandLong, .commandAck, .statusText:
            break   // the ground station's side of the link: nothing the viewer draws
        }
        return false
    }

    /// Counts a datagram that was not (entirely) MAVLink this viewer understands.
    public mutating func countBadDatagram() { snapshot.badDatagrams += 1 }

    func allFinite(_ values: [Float]) -> Bool { values.allSatisfy(\.isFinite) }

    mutating func dropNonFinite() -> Bool {
        snapshot.nonFiniteDropped += 1
        return false
    }

    /// Marks `name` as the most recently updated, evicting the least recent one when full.
    mutating func remember(_ name: String) {
        if let index = valueOrder.firstIndex(of: name) {
            valueOrder.remove(at: index)
        } else if valueOrder.count >= Self.maximumNamedValues {
            snapshot.values[valueOrder.removeFirst()] = nil
            snapshot.namesEvicted += 1
        }
        valueOrder.append(name)
    }

    mutating func remove(_ name: String) {
        if let index = valueOrder.firstIndex(of: name) { valueOrder.remove(at: index) }
        snapshot.values[name] = nil
    }
}

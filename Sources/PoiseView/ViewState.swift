import PoiseTelemetry

/// Folds decoded MAVLink frames into the newest ``ViewSnapshot``.
public struct ViewState: Sendable {
    public private(set) var snapshot = ViewSnapshot()
    var lastSequence: [Int: UInt8] = [:]

    public init() {}

    /// Applies one frame; returns true when it completes a moment worth drawing (an
    /// ATTITUDE_QUATERNION, the highest-rate message, carries the tick's attitude).
    public mutating func apply(_ frame: MAVLinkFrame, receivedAt: Double) -> Bool {
        snapshot.frames += 1
        let source = Int(frame.systemID) << 8 | Int(frame.componentID)
        if let last = lastSequence[source] {
            let gap = Int(frame.sequence &- last &- 1)
            // A big jump backwards is more likely a restarted sender than 200 lost frames.
            if gap < 128 { snapshot.lostFrames += gap }
        }
        lastSequence[source] = frame.sequence
        snapshot.systemID = Int(frame.systemID)
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
            snapshot.euler = [m.roll, m.pitch, m.yaw]
            snapshot.rates = [m.rollSpeed, m.pitchSpeed, m.yawSpeed]
        case .attitudeQuaternion(let m):
            snapshot.q = [m.q1, m.q2, m.q3, m.q4]
            snapshot.rates = [m.rollSpeed, m.pitchSpeed, m.yawSpeed]
            snapshot.time = Double(m.timeBootMs) / 1000
            snapshot.received = receivedAt
            return true
        case .scaledIMU(let m):
            snapshot.acc = [Int(m.xacc), Int(m.yacc), Int(m.zacc)]
            snapshot.gyro = [Int(m.xgyro), Int(m.ygyro), Int(m.zgyro)]
            snapshot.mag = [Int(m.xmag), Int(m.ymag), Int(m.zmag)]
        case .servoOutputRaw(let m):
            var servo: [Int] = []
            for i in 0 ..< 16 { servo.append(Int(m.servo[i])) }
            while let last = servo.last, last == 0 { servo.removeLast() }
            snapshot.servo = servo
        case .namedValueFloat(let m):
            snapshot.values[m.name] = m.value
        }
        return false
    }

    /// Counts a datagram that was not (entirely) MAVLink this viewer understands.
    public mutating func countBadDatagram() { snapshot.badDatagrams += 1 }
}

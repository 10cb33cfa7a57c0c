#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseThreads
import Synchronization

/// A message the receive path sends back to the ground station.
public enum LinkReply: Sendable {
    case paramValue(ParamValue)
    case commandAck(CommandAck)
    case statusText(StatusText)
}

/// Sends tick records as MAVLink over UDP from its own, ordinary-priority thread.
///
/// The loop (or a replay) calls ``offer(_:)``, which only copies the record into a lock-free
/// ring; the sender thread drains the ring, schedules messages by sensor time and sends one
/// datagram per frame. A slow or absent network never blocks the producer: records that do not
/// fit are dropped and reported in SYS_STATUS.
public final class TelemetrySender: @unchecked Sendable {
    public let address: TelemetryAddress
    let ring: TickRecordRing
    /// `ring` without reference counting, for the producer in the tick (the sender owns `ring`).
    let unretainedRing: Unmanaged<TickRecordRing>
    let socket: UDPSocket
    let worker = WorkerThread(name: "poise-telemetry")
    let sentFrames = Atomic<Int>(0)
    let failedSends = Atomic<Int>(0)
    var stream: TelemetryStream
    /// Replies of the receive path (``TelemetryReceiver``), framed and sent by this thread so
    /// that one framer numbers every frame of the link; bounded.
    let outbox = Mutex<[LinkReply]>([])
    public static let outboxCapacity = 256
    /// The newest record this thread has seen (the receive path checks the arming rules on it).
    let newest = Mutex<TickRecord?>(nil)

    public init(address: TelemetryAddress, settings: TelemetrySettings, ringCapacity: Int = 4096) throws(TelemetryError) {
        self.address = address
        socket = try UDPSocket(sendingTo: address)
        ring = TickRecordRing(capacity: ringCapacity)
        unretainedRing = .passUnretained(ring)
        stream = TelemetryStream(settings: settings)
    }

    /// Signs every frame sent from now on (call before ``start()``), each with a timestamp
    /// later than `after` (an earlier run's reservation: ``MAVLinkSigningStore``).
    public func sign(with key: MAVLinkSigningKey, after: UInt64 = 0) {
        stream.signer = MAVLinkSigner(key: key, after: after)
        stream.unixTime = { TelemetrySender.unixTime() }
        signedUpTo.store(after, ordering: .relaxed)
    }

    /// The newest timestamp this thread has signed a frame with (0 unsigned).
    public var lastSignedTimestamp: UInt64 { signedUpTo.load(ordering: .relaxed) }
    let signedUpTo = Atomic<UInt64>(0)

    /// Wall-clock time, s since 1970.
    public static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }

    /// Queues a reply to the ground station; false when the outbox is full (dropped).
    @discardableResult
    public func reply(_ message: LinkReply) -> Bool {
        outbox.withLock { queue in
            guard queue.count < Self.outboxCapacity else { return false }
            queue.append(message)
            return true
        }
    }

    /// The newest record sent (nil before the first).
    public var newestRecord: TickRecord? { newest.withLock { $0 } }

    /// Producer side, from any one thread: lock-free, allocation-free. False when dropped.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    @discardableResult
    public func offer(_ record: TickRecord) -> Bool { unretainedRing._withUnsafeGuaranteedRef { $0.offer(record) } }

    /// Starts the sender thread.
    public func start() { _ = worker.start { [self] in run() } }

    /// Sends what is queued, then stops the thread and waits for it.
    public func stop() { worker.stop() }

    /// Frames sent, and sends the kernel refused (e.g. nobody listening on loopback).
    public var framesSent: Int { sentFrames.load(ordering: .relaxed) }
    public var sendFailures: Int { failedSends.load(ordering: .relaxed) }

    func run() {
        while true {
            let stop = worker.stopRequested
            var any = false
            let replies = outbox.withLock { queue in defer { queue.removeAll(keepingCapacity: true) }; return queue }
            for reply in replies {
                any = true
                switch reply {
                case .paramValue(let m): stream.frame(m, send)
                case .commandAck(let m): stream.frame(m, send)
                case .statusText(let m): stream.frame(m, send)
                }
            }
            var last: TickRecord? = nil
            while let record = ring.poll() {
                last = record
                any = true
                stream.droppedRecords = UInt64(ring.dropped)
                stream.process(record, emit: send)
            }
            if let last { newest.withLock { $0 = last } }
            if any, let signer = stream.signer { signedUpTo.store(signer.lastTimestamp, ordering: .relaxed) }
            if stop { break }
            if !any { usleep(1000) }
        }
    }

    /// One frame onto the socket, counted as sent or refused.
    func send(_ frame: UnsafeRawBufferPointer) {
        if socket.send(frame) { sentFrames.add(1, ordering: .relaxed) } else { failedSends.add(1, ordering: .relaxed) }
    }
}

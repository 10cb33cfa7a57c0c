import Foundation
import PoiseDeviceSettings
import PoiseTick
import Synchronization

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
    let stopping = Atomic<Bool>(false)
    let sentFrames = Atomic<Int>(0)
    let failedSends = Atomic<Int>(0)
    var stream: TelemetryStream
    var thread: Thread?
    let finished = DispatchSemaphore(value: 0)

    public init(address: TelemetryAddress, settings: TelemetrySettings, ringCapacity: Int = 4096) throws(TelemetryError) {
        self.address = address
        socket = try UDPSocket(sendingTo: address)
        ring = TickRecordRing(capacity: ringCapacity)
        unretainedRing = .passUnretained(ring)
        stream = TelemetryStream(settings: settings)
    }

    /// Producer side, from any one thread: lock-free, allocation-free. False when dropped.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    @discardableResult
    public func offer(_ record: TickRecord) -> Bool { unretainedRing._withUnsafeGuaranteedRef { $0.offer(record) } }

    /// Starts the sender thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "poise-telemetry"
        thread.qualityOfService = .utility
        self.thread = thread
        thread.start()
    }

    /// Sends what is queued, then stops the thread and waits for it.
    public func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
        thread = nil
    }

    /// Frames sent, and sends the kernel refused (e.g. nobody listening on loopback).
    public var framesSent: Int { sentFrames.load(ordering: .relaxed) }
    public var sendFailures: Int { failedSends.load(ordering: .relaxed) }

    func run() {
        while true {
            let stop = stopping.load(ordering: .acquiring)
            var any = false
            while let record = ring.poll() {
                any = true
                stream.droppedRecords = UInt64(ring.dropped)
                stream.process(record) { frame in
                    if socket.send(frame) { sentFrames.add(1, ordering: .relaxed) } else { failedSends.add(1, ordering: .relaxed) }
                }
            }
            if stop { break }
            if !any { usleep(1000) }
        }
        finished.signal()
    }
}

// The three hand-overs that carry more than one word between threads, each run by several
// writer/reader pairs at once. What a reader must never see (each a failure):
//   torn   a value mixing two writes (a Payload's eight words differ; a record's fields differ)
//   stale  an older value after a newer one, or a "new" value that is not newer
//   lost   a value never delivered, or delivered twice (the mailbox and the ring deliver each)
// On Arm, a missing release on the writer's publishing store or a missing acquire on the
// reader's load lets the reader see the index or count before the slot's contents: torn or
// stale values (docs/kernel-tests.md, "The hand-overs on Arm's memory model").
import PoiseFlightCore
import PoiseThreads
import Synchronization
#if hasFeature(Embedded)
import PoiseLibc
#else
import Glibc
#endif

/// Eight words all holding the same number: a reader that finds two different words saw a
/// torn value.
struct Payload: BitwiseCopyable, Sendable {
    var w0, w1, w2, w3, w4, w5, w6, w7: UInt64

    init(_ k: UInt64) { (w0, w1, w2, w3, w4, w5, w6, w7) = (k, k, k, k, k, k, k, k) }

    /// The number, or nil when the words disagree.
    var sequence: UInt64? {
        w0 == w1 && w0 == w2 && w0 == w3 && w0 == w4 && w0 == w5 && w0 == w6 && w0 == w7 ? w0 : nil
    }
}

/// What one hand-over's run found.
struct LitmusOutcome {
    var summary: String
    var failures: Int
}

/// One reader's counts, read by the main thread after joining it; the writer's end flag.
final class ReaderTally: @unchecked Sendable {
    var reads = 0, fresh = 0, torn = 0, stale = 0, lost = 0
    let writerDone = Atomic<Bool>(false)
    let readerDone = Atomic<Bool>(false)
    let start = StartLine()

    /// Whether a reader still waiting for the last value should give up: the writer ended
    /// long ago (a value that never arrives is lost, not a hang).
    func givesUp(_ waited: inout Int) -> Bool {
        guard writerDone.load(ordering: .acquiring) else { return false }
        waited += 1
        return waited > 5_000_000
    }
}

/// Spins politely: gives the CPU away now and then, so that a reader and a writer sharing
/// one (emulated or real) core both progress.
@inline(__always) func pause(_ spins: inout Int) {
    spins &+= 1
    if spins & 63 == 0 { sched_yield() }
}

/// Starts each pair's threads, joins them all, sums the tallies.
func runPairs(_ name: String, _ size: LitmusSize,
              _ makePair: (Int, ReaderTally) -> (writer: @Sendable () -> Void, reader: @Sendable () -> Void)) -> (ReaderTally, Int) {
    var threads: [WorkerThread] = []
    var tallies: [ReaderTally] = []
    for pair in 0..<size.pairs {
        let tally = ReaderTally()
        let (writer, reader) = makePair(pair, tally)
        let readerThread = WorkerThread(name: "\(name)-r\(pair)")
        let writerThread = WorkerThread(name: "\(name)-w\(pair)")
        // Both released together, so that the writer does not finish before the reader starts.
        readerThread.start {
            tally.start.arrive(2)
            reader()
        }
        writerThread.start {
            tally.start.arrive(2)
            writer()
            tally.writerDone.store(true, ordering: .releasing)
        }
        threads.append(readerThread)
        threads.append(writerThread)
        tallies.append(tally)
    }
    for thread in threads { thread.join() }
    let total = ReaderTally()
    for tally in tallies {
        total.reads += tally.reads; total.fresh += tally.fresh
        total.torn += tally.torn; total.stale += tally.stale; total.lost += tally.lost
    }
    return (total, threads.count)
}

/// TripleBuffer: each reader calls `latest()` N times (and on, up to 50 N, until N / 100 reads
/// found a new value; in any case until one did) while its writer publishes 1, 2, 3, … until
/// the reader is done.
func tripleBufferLitmus(_ size: LitmusSize) -> LitmusOutcome {
    let n = size.iterations
    var published = 0
    let counts = Column(size.pairs)
    let (t, threads) = runPairs("tb", size) { pair, tally in
        let buffer = TripleBuffer(initial: Payload(0))
        return (writer: {
                    var k: UInt64 = 0
                    while !tally.readerDone.load(ordering: .relaxed) {
                        k += 1
                        buffer.publish(Payload(k))
                    }
                    counts.slots[pair] = k
                },
                reader: {
                    // At least N reads, and more until enough of them were new that the two
                    // threads really ran at the same time (a loaded host may run the reader's
                    // N reads in one go): up to 50 N, the summary says how many were new, but
                    // never without one (then nothing was handed over).
                    var last: UInt64 = 0
                    var spins = 0
                    let wanted = max(1, n / 100)
                    while tally.reads < n || (tally.fresh < wanted && (tally.reads < 50 * n || tally.fresh == 0)) {
                        let (value, isNew) = buffer.latest()
                        tally.reads += 1
                        if isNew { tally.fresh += 1 }
                        if let k = value.sequence {
                            // A new value is one published after the previous read's: larger.
                            if k < last || (isNew && k == last) { tally.stale += 1 }
                            if k > last { last = k }
                        } else {
                            tally.torn += 1
                        }
                        pause(&spins)
                    }
                    tally.readerDone.store(true, ordering: .relaxed)
                })
    }
    for pair in 0..<size.pairs { published += Int(counts.slots[pair]) }
    return LitmusOutcome(
        summary: "triple-buffer: \(threads) threads, \(t.reads) reads (\(t.fresh) new) of \(published) publishes: \(t.torn) torn, \(t.stale) stale",
        failures: t.torn + t.stale)
}

/// SettingsMailbox: each poster posts 1…N, retrying while the slot is full; its taker must
/// take exactly 1, 2, …, N.
func settingsMailboxLitmus(_ size: LitmusSize) -> LitmusOutcome {
    let n = UInt64(size.iterations)
    let (t, threads) = runPairs("mb", size) { _, tally in
        let mailbox = SettingsMailbox<Payload>()
        return (writer: {
                    var spins = 0
                    for k in 1...n { while !mailbox.post(Payload(k)) { pause(&spins) } }
                },
                reader: {
                    var expected: UInt64 = 1
                    var spins = 0, waited = 0
                    while expected <= n {
                        if let value = mailbox.take() {
                            tally.reads += 1
                            guard let k = value.sequence else { tally.torn += 1; expected += 1; continue }
                            if k < expected { tally.stale += 1 } else { tally.lost += Int(k - expected) }
                            expected = k + 1
                        } else {
                            pause(&spins)
                            if tally.givesUp(&waited) { tally.lost += Int(n - expected + 1); break }
                        }
                    }
                })
    }
    return LitmusOutcome(
        summary: "settings-mailbox: \(threads) threads, \(size.pairs) × \(n) posts, \(t.reads) taken: \(t.torn) torn, \(t.stale) taken twice or out of order, \(t.lost) lost",
        failures: t.torn + t.stale + t.lost)
}

/// TickRecordRing (64 slots): each producer offers ticks 1…N, retrying while the ring is full;
/// its consumer must poll exactly 1, 2, …, N with every checked field agreeing with the tick.
func tickRecordRingLitmus(_ size: LitmusSize) -> LitmusOutcome {
    let n = UInt64(size.iterations)
    let (t, threads) = runPairs("ring", size) { _, tally in
        let ring = TickRecordRing(capacity: 64)
        return (writer: {
                    var spins = 0
                    var record = TickRecord()
                    for k in 1...n {
                        record.tick = k
                        record.time = Double(k)
                        record.latenessNanoseconds = Int64(k)
                        record.computeNanoseconds = Int64(k)
                        record.stallNanoseconds = Int64(k)
                        while !ring.offer(record) { pause(&spins) }
                    }
                },
                reader: {
                    var expected: UInt64 = 1
                    var spins = 0, waited = 0
                    while expected <= n {
                        if let record = ring.poll() {
                            tally.reads += 1
                            let k = record.tick
                            guard record.time == Double(k), record.latenessNanoseconds == Int64(k),
                                  record.computeNanoseconds == Int64(k), record.stallNanoseconds == Int64(k) else {
                                tally.torn += 1; expected += 1; continue
                            }
                            if k < expected { tally.stale += 1 } else { tally.lost += Int(k - expected) }
                            expected = k + 1
                        } else {
                            pause(&spins)
                            if tally.givesUp(&waited) { tally.lost += Int(n - expected + 1); break }
                        }
                    }
                })
    }
    return LitmusOutcome(
        summary: "tick-record-ring: \(threads) threads, \(size.pairs) × \(n) records, \(t.reads) polled: \(t.torn) torn, \(t.stale) polled twice or out of order, \(t.lost) lost",
        failures: t.torn + t.stale + t.lost)
}

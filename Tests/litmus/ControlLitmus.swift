// Two classic litmus shapes with relaxed atomics only: not the project's code, but what it
// would be without its release/acquire. They count the reorderings the machine running them
// shows, and never fail: the counts say what this machine can and cannot show.
//   message passing (MP)   data then flag; the reader sees the flag, then older data.
//                          Needs store→store or load→load reordering: Arm hardware does it,
//                          an x86 host (TSO) never does, so qemu on x86 shows 0.
//   store buffering (SB)   each thread stores its variable then loads the other's; both miss
//                          the other's store. Needs store→load reordering, which both Arm and
//                          x86 do: qemu on x86 passes the host's reordering through. Run again
//                          sequentially consistent (STLR then LDAR on aarch64), which Arm
//                          forbids to reorder; qemu's TCG puts its barriers before the STLR and
//                          after the LDAR, none between, so on an x86 host it still shows them.
import PoiseThreads
import Synchronization
#if hasFeature(Embedded)
import PoiseLibc
#else
import Glibc
#endif

/// One word on its own allocation (its own cache line in practice).
final class Word: Sendable {
    let value = Atomic<UInt64>(0)
}

/// A plain array two threads fill and the main thread reads after joining them.
final class Column: @unchecked Sendable {
    let slots: UnsafeMutablePointer<UInt64>
    init(_ count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: 0, count: count)
    }
    deinit { slots.deallocate() }
}

/// Two threads released together, so that their loops overlap.
final class StartLine: Sendable {
    let ready = Atomic<Int>(0)
    func arrive(_ parties: Int) {
        ready.add(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while ready.load(ordering: .acquiring) < parties { pause(&spins) }
    }
}

func messagePassingControl(_ size: LitmusSize) -> String {
    let n = size.iterations
    let data = Word(), flag = Word(), done = Word(), start = StartLine()
    let seen = Column(3)   // reorderings seen, reads, reads while the flag moved
    let writer = WorkerThread(name: "mp-w")
    let reader = WorkerThread(name: "mp-r")
    reader.start {
        start.arrive(2)
        var reorderings: UInt64 = 0, reads: UInt64 = 0, moving: UInt64 = 0
        var previous: UInt64 = 0
        var spins = 0
        // N reads, and on (up to 50 N) until N / 100 of them found the flag moved.
        while reads < UInt64(n) || (moving < UInt64(max(1, n / 100)) && reads < 50 * UInt64(n)) {
            let f = flag.value.load(ordering: .relaxed)
            let d = data.value.load(ordering: .relaxed)
            if d < f { reorderings += 1 }
            if f != previous { moving += 1; previous = f }
            reads += 1
            pause(&spins)
        }
        done.value.store(1, ordering: .relaxed)
        seen.slots[0] = reorderings
        seen.slots[1] = reads
        seen.slots[2] = moving
    }
    writer.start {
        start.arrive(2)
        var k: UInt64 = 0
        while done.value.load(ordering: .relaxed) == 0 {
            k += 1
            data.value.store(k, ordering: .relaxed)
            flag.value.store(k, ordering: .relaxed)
        }
    }
    writer.join(); reader.join()
    return "message-passing-relaxed: \(seen.slots[0]) of \(seen.slots[1]) reads (\(seen.slots[2]) with the flag moved) saw the flag before its data"
}

func storeBufferingControl(_ size: LitmusSize, sequentiallyConsistent: Bool) -> String {
    let n = size.iterations
    let x = Word(), y = Word(), start = StartLine()
    let a = Column(n + 2), b = Column(n + 2)
    let left = WorkerThread(name: "sb-a")
    let right = WorkerThread(name: "sb-b")
    // (An atomic's ordering must be a constant: one loop per ordering.)
    left.start {
        start.arrive(2)
        if sequentiallyConsistent {
            for i in 1...n {
                x.value.store(UInt64(i), ordering: .sequentiallyConsistent)
                a.slots[i] = y.value.load(ordering: .sequentiallyConsistent)
            }
        } else {
            for i in 1...n {
                x.value.store(UInt64(i), ordering: .relaxed)
                a.slots[i] = y.value.load(ordering: .relaxed)
            }
        }
    }
    right.start {
        start.arrive(2)
        if sequentiallyConsistent {
            for j in 1...n {
                y.value.store(UInt64(j), ordering: .sequentiallyConsistent)
                b.slots[j] = x.value.load(ordering: .sequentiallyConsistent)
            }
        } else {
            for j in 1...n {
                y.value.store(UInt64(j), ordering: .relaxed)
                b.slots[j] = x.value.load(ordering: .relaxed)
            }
        }
    }
    left.join(); right.join()
    // Sequentially consistent: a's load in round i read y = r, so b's store of r + 1 came
    // after it, and b's load in round r + 1 after a's store of i: b[r + 1] ≥ i. Less is a
    // store→load reordering on one side or the other.
    // A round overlapped when it read a value the other thread wrote mid-run.
    var reorderings = 0, overlapped = 0
    for i in 1...n {
        let r = Int(a.slots[i])
        if r > 0 && r < n { overlapped += 1 }
        if r < n && b.slots[r + 1] < UInt64(i) { reorderings += 1 }
    }
    return "store-buffering-\(sequentiallyConsistent ? "seq-cst" : "relaxed"): \(reorderings) of \(n) rounds (\(overlapped) overlapped) showed a store→load reordering"
}

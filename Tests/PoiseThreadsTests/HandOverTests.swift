import Foundation
import PoiseThreads
import Testing

/// The two lock-free hand-overs between the tick and other threads.
@Suite struct HandOverTests {
    struct Pair: BitwiseCopyable, Equatable { var a: UInt64; var b: UInt64 }

    @Test func tripleBufferGivesTheNewestWholeValue() {
        let buffer = TripleBuffer(initial: Pair(a: 0, b: 0))
        #expect(buffer.latest().isNew == false)
        buffer.publish(Pair(a: 1, b: 1))
        buffer.publish(Pair(a: 2, b: 2))
        let first = buffer.latest()
        #expect(first.value == Pair(a: 2, b: 2) && first.isNew)
        let second = buffer.latest()
        #expect(second.value == Pair(a: 2, b: 2) && !second.isNew)
    }

    @Test func tripleBufferNeverTearsAcrossThreads() async {
        let buffer = TripleBuffer(initial: Pair(a: 0, b: 0))
        let writer = Thread {
            for i in 1...200_000 { buffer.publish(Pair(a: UInt64(i), b: UInt64(i) &* 2654435761)) }
        }
        writer.start()
        var last: UInt64 = 0
        var torn = 0, backwards = 0
        for _ in 0..<200_000 {
            let (value, _) = buffer.latest()
            if value.b != value.a &* 2654435761 { torn += 1 }
            if value.a < last { backwards += 1 }
            last = value.a
        }
        while !writer.isFinished { usleep(1000) }
        #expect(torn == 0)
        #expect(backwards == 0)
        #expect(buffer.latest().value.a == 200_000)
    }

    @Test func mailboxHandsOverOnceAndRefusesWhileFull() {
        let mailbox = SettingsMailbox<[Int]>()
        #expect(mailbox.take() == nil)
        #expect(mailbox.post([1, 2]))
        #expect(!mailbox.post([3]), "the tick has not taken the first value yet")
        #expect(mailbox.take() == [1, 2])
        #expect(mailbox.take() == nil)
        #expect(mailbox.post([3]))
        #expect(mailbox.take() == [3])
    }
}

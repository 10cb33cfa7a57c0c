import PoiseControl
import PoiseHAL
import PropertyBased
import Testing

/// The wheel encoders' quadrature decoding: every edge counts, A leading B is forward, a
/// lost edge is found from the next edge on its channel.
@Suite struct QuadratureDecoderTests {
    /// (A, B) at position p of the forward cycle 00 → 10 → 11 → 01.
    static func levels(_ p: Int) -> (a: Bool, b: Bool) {
        [(false, false), (true, false), (true, true), (false, true)][((p % 4) + 4) % 4]
    }

    /// The edge from position p to p ± 1: which channel changed, and its new level.
    static func edge(from p: Int, to q: Int) -> (onA: Bool, level: Bool) {
        let old = levels(p), new = levels(q)
        return old.a != new.a ? (true, new.a) : (false, new.b)
    }

    static func feed(_ d: inout QuadratureDecoder, _ e: (onA: Bool, level: Bool)) {
        if e.onA { d.edgeOnA(to: e.level) } else { d.edgeOnB(to: e.level) }
    }

    @Test func aLeadingBCountsUpEveryEdgeAndBLeadingACountsDown() {
        var d = QuadratureDecoder(a: false, b: false)
        for p in 0..<8 { Self.feed(&d, Self.edge(from: p, to: p + 1)) }
        #expect(d.count == 8)
        for p in (1...8).reversed() { Self.feed(&d, Self.edge(from: p, to: p - 1)) }
        #expect(d.count == 0)
        for p in (-5...0).reversed() { Self.feed(&d, Self.edge(from: p, to: p - 1)) }
        #expect(d.count == -6)
        #expect(d.missedEdges == 0)
    }

    @Test func aReversalInTheMiddleOfACycleCountsBack() {
        var d = QuadratureDecoder(a: false, b: false)
        d.edgeOnA(to: true)    // 00 → 10: +1
        d.edgeOnB(to: true)    // 10 → 11: +1
        d.edgeOnB(to: false)   // 11 → 10: −1
        d.edgeOnA(to: false)   // 10 → 00: −1
        #expect(d.count == 0)
    }

    @Test func aLostEdgeIsFoundFromTheNextEdgeOnItsChannelAndNotCounted() {
        var d = QuadratureDecoder(a: false, b: false)
        d.edgeOnA(to: true)    // +1
        // A fell (lost) and rose again: the wheel went back one count and forward again.
        d.edgeOnA(to: true)
        #expect(d.count == 1 && d.missedEdges == 1)
        d.edgeOnB(to: true)    // on again from the right state: +1
        #expect(d.count == 2)
    }

    @Test func resyncCountsOneChangedChannelAndSkipsTwo() {
        var d = QuadratureDecoder(a: false, b: false)
        d.resync(a: true, b: false)
        #expect(d.count == 1)
        d.resync(a: false, b: true)     // both changed: direction unknown
        #expect(d.count == 1 && d.missedEdges == 2 && !d.a && d.b)
    }

    /// A wheel's random walk, edge by edge, is decoded exactly. Edges lost where the wheel
    /// turns back — the edge and its return on the same channel come too close together, the
    /// way a real reader loses them — are each found and leave the count exact.
    @Test func aRandomWalkIsCountedExactlyThroughEdgesLostAtReversals() async {
        let step = zip(Gen.bool, Gen.int(in: 0...4))
        await propertyCheck(count: 300, input: step.array(of: 0...400)) { steps in
            var exact = QuadratureDecoder(a: false, b: false)
            var lossy = QuadratureDecoder(a: false, b: false)
            var position = 0, lost = 0, lostLast = false
            for (index, (forward, dice)) in steps.enumerated() {
                let next = position + (forward ? 1 : -1)
                let e = Self.edge(from: position, to: next)
                Self.feed(&exact, e)
                // Lost when the wheel turns straight back (the next step's edge is this one's return).
                let reverses = index + 1 < steps.count && steps[index + 1].0 != forward
                // (The return itself arrives, or the loss could not be seen.)
                lostLast = dice == 0 && reverses && !lostLast
                if lostLast { lost += 1 } else { Self.feed(&lossy, e) }
                position = next
            }
            #expect(exact.count == Int64(position) && exact.missedEdges == 0)
            #expect(lossy.count == Int64(position), "\(lossy.count) vs \(position), \(lost) lost")
            #expect(lossy.missedEdges == lost)
        }
    }
}

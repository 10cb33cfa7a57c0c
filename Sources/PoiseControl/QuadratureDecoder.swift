/// One quadrature encoder's two channels (A, B) decoded into a count: every edge of either
/// channel counts one (×4 decoding), up when A leads B (00 → 10 → 11 → 01 → 00), down the
/// other way. Fed edge by edge in the order they happened (libgpiod's events, merged by
/// timestamp), so the rule needs no sampling of the other line.
///
/// A missed edge shows as an edge that leaves its channel at the level it already had: the
/// edge before it on that channel was lost. The two together moved the wheel one count and
/// back (the other channel did not change between them), so nothing is counted and
/// `missedEdges` goes up; the decoder is at the right state again at once.
public struct QuadratureDecoder: Sendable, Equatable {
    public private(set) var count: Int64 = 0
    /// Edges that were lost (each found from the edge after it).
    public private(set) var missedEdges: Int = 0
    public private(set) var a: Bool
    public private(set) var b: Bool

    /// Starts at the channels' present levels, count 0.
    public init(a: Bool, b: Bool) {
        self.a = a
        self.b = b
    }

    /// An edge on channel A leaving it at `level`.
    public mutating func edgeOnA(to level: Bool) {
        guard level != a else { missedEdges += 1; return }
        a = level
        count += level != b ? 1 : -1
    }

    /// An edge on channel B leaving it at `level`.
    public mutating func edgeOnB(to level: Bool) {
        guard level != b else { missedEdges += 1; return }
        b = level
        count += level == a ? 1 : -1
    }

    /// Both levels read at once (after events were dropped): a change of one channel counts
    /// as its edge; a change of both is two lost edges of unknown direction, not counted.
    public mutating func resync(a newA: Bool, b newB: Bool) {
        switch (newA != a, newB != b) {
        case (true, false): edgeOnA(to: newA)
        case (false, true): edgeOnB(to: newB)
        case (true, true):
            missedEdges += 2
            a = newA
            b = newB
        case (false, false): break
        }
    }
}

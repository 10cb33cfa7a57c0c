/// Both wheel encoders' running counts, as the encoder reader last handed them to the tick
/// (quadrature edges, positive forward). Only differences between ticks matter, so the
/// counts may start anywhere and wrap.
@frozen
public struct WheelCounts: Sendable, Equatable, BitwiseCopyable {
    public var left: Int64
    public var right: Int64

    @inlinable
    public init(left: Int64 = 0, right: Int64 = 0) {
        self.left = left
        self.right = right
    }
}

import PoiseFlightCore
import PoiseThreads

/// The wheel encoders on the simulated board: quadrature encoders on the wheels of a world
/// that has them, their counts (`countsPerRevolution` edges per wheel turn, as an ideal
/// decoder that misses no edge counts them) handed to the tick through the same
/// ``WheelEncoderState`` the libgpiod reader fills. Set between ticks with the world, so a
/// simulated run stays deterministic.
public struct SimulatedWheelEncoders: Sendable {
    public let countsPerRevolution: Double
    public let state: WheelEncoderState

    public init(countsPerRevolution: Double, state: WheelEncoderState) {
        self.countsPerRevolution = countsPerRevolution
        self.state = state
    }

    /// The count an encoder shows at wheel angle `angle`, rad.
    public func count(atAngle angle: Double) -> Int64 {
        Int64((angle / (2 * .pi) * countsPerRevolution).rounded(.down))
    }

    /// Hands over the counts of the wheels at these angles (rad).
    public func update(wheelAngles: (left: Double, right: Double)) {
        state.set(left: count(atAngle: wheelAngles.left), right: count(atAngle: wheelAngles.right))
    }
}

import PoiseControl
import PoiseFusion

extension FlightCore {
    /// The gyroscope sample through the configured low-pass and notches, before the start-up
    /// bias, the attitude filter and the controllers' rate (D) terms see it. Throttle notches
    /// follow the mean of the four motor commands of the previous tick (0 when nothing drives
    /// motors: such a notch rests at its lowest centre).
    @inlinable
    mutating func filteredGyroscope(_ gyroscope: SIMD3<Float>) -> SIMD3<Float> {
        guard gyroFilters.isActive else { return gyroscope }
        let throttle = (signals[.motor1] + signals[.motor2] + signals[.motor3] + signals[.motor4]) * 0.25
        return gyroFilters.apply(gyroscope, throttle: throttle)
    }
}

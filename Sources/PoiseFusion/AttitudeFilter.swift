import PoiseMath

/// The interface every attitude filter implements.
///
/// Replay and the live loop are generic over this protocol, so each filter is used through a
/// specialised call, never an existential. `update` runs in the real-time path: it must not
/// allocate or lock, and implementations mark it `@_noAllocation`.
public protocol AttitudeFilter: Sendable {
    /// Tunable parameters, with units and documented defaults.
    associatedtype Settings: Sendable

    /// A filter in its start-up state.
    init(settings: Settings)

    /// Fuses one sample taken `dt` seconds after the previous one.
    /// When `useMagnetometer` is false the filter runs 6D and ignores `sample.magnetometer`.
    mutating func update(_ sample: InertialSample, dt: Float)

    /// Body-to-world attitude (world = ENU: x east, y north, z up; heading arbitrary in 6D).
    var attitude: Quaternion { get }
}

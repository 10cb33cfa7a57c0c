import PoiseMath
import PoiseMotion

// Plants integrate in Double with the deterministic sin/cos of PoiseMotion, so a simulated
// run is bit-identical on every machine (libm may differ in the last bit).
@inline(__always) func _sinD(_ x: Double) -> Double { Elementary.sin(x) }
@inline(__always) func _cosD(_ x: Double) -> Double { Elementary.cos(x) }

/// The cross product in Double (PoiseMath's is Float).
@inline(__always) func crossD(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

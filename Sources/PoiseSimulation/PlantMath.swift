import PoiseMotion

// Plants integrate in Double with the deterministic sin/cos of PoiseMotion, so a simulated
// run is bit-identical on every machine (libm may differ in the last bit).
@inline(__always) func _sinD(_ x: Double) -> Double { DeterministicMath.sin(x) }
@inline(__always) func _cosD(_ x: Double) -> Double { DeterministicMath.cos(x) }

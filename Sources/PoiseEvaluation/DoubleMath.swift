#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Double-precision elementary functions for scoring (offline code, not the real-time path).

func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

extension Double {
    var cosine: Double { cos(self) }
    var sine: Double { sin(self) }
    var arcCosine: Double { acos(self) }
    var arcTangent: Double { atan(self) }
}

/// How the chip is mounted: which signed chip axis each body axis reads.
///
/// Written as three signed axis letters, one per body axis in x, y, z order: `+y-x+z` means
/// body x = chip +y, body y = chip −x, body z = chip +z (the chip turned 90° about z). Only the
/// 24 proper rotations are accepted; a mirror image (determinant −1) such as `+x+y-z` would
/// silently flip the handedness of every estimate, so it is rejected.
public struct AxisMapping: Equatable, Sendable, CustomStringConvertible {
    /// For each body axis, the index (0 = x, 1 = y, 2 = z) of the chip axis it reads.
    public let chipAxes: SIMD3<Int32>
    /// For each body axis, +1 or −1.
    public let signs: SIMD3<Float>

    /// The chip axes are the body axes.
    public static let identity = AxisMapping(chipAxes: [0, 1, 2], signs: [1, 1, 1])

    init(chipAxes: SIMD3<Int32>, signs: SIMD3<Float>) {
        self.chipAxes = chipAxes
        self.signs = signs
    }

    /// Parses `+x+y+z`-style text; `nil` with a reason when it is not a proper rotation.
    public static func parse(_ text: String) -> Result<AxisMapping, AxisMappingError> {
        let characters = Array(text)
        guard characters.count == 6 else { return .failure(.malformed) }
        var axes = SIMD3<Int32>(repeating: 0)
        var signs = SIMD3<Float>(repeating: 1)
        for i in 0..<3 {
            switch characters[2 * i] {
            case "+": signs[i] = 1
            case "-": signs[i] = -1
            default: return .failure(.malformed)
            }
            switch characters[2 * i + 1] {
            case "x", "X": axes[i] = 0
            case "y", "Y": axes[i] = 1
            case "z", "Z": axes[i] = 2
            default: return .failure(.malformed)
            }
        }
        guard Set([axes.x, axes.y, axes.z]).count == 3 else { return .failure(.repeatedAxis) }
        let mapping = AxisMapping(chipAxes: axes, signs: signs)
        guard mapping.determinant == 1 else { return .failure(.reflection) }
        return .success(mapping)
    }

    /// +1 for a rotation, −1 for a reflection: the permutation's parity times the signs.
    public var determinant: Int {
        // Cyclic orders (xyz, yzx, zxy) are even permutations.
        let cyclic = (chipAxes.y == (chipAxes.x + 1) % 3)
        let parity = cyclic ? 1 : -1
        return parity * Int(signs.x * signs.y * signs.z)
    }

    /// Maps a chip-frame vector to the body frame.
    @inlinable
    public func map(_ chip: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(chip[Int(chipAxes.x)], chip[Int(chipAxes.y)], chip[Int(chipAxes.z)]) * signs
    }

    /// Maps a chip-frame vector to the body frame.
    public func map(_ chip: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(chip[Int(chipAxes.x)], chip[Int(chipAxes.y)], chip[Int(chipAxes.z)])
            * SIMD3<Double>(Double(signs.x), Double(signs.y), Double(signs.z))
    }

    /// All 24 proper rotations, in `+x+y+z` notation.
    public static let allNames: [String] = {
        var names: [String] = []
        for a in ["x", "y", "z"] { for b in ["x", "y", "z"] { for c in ["x", "y", "z"] {
            for s in 0..<8 {
                let text = (s & 1 == 0 ? "+" : "-") + a + (s & 2 == 0 ? "+" : "-") + b
                    + (s & 4 == 0 ? "+" : "-") + c
                if case .success = parse(text) { names.append(text) }
            }
        } } }
        return names
    }()

    public var description: String {
        let letters = ["x", "y", "z"]
        return (0..<3).map { (signs[$0] < 0 ? "-" : "+") + letters[Int(chipAxes[$0])] }.joined()
    }
}

/// Why a mounting string is not an axis mapping.
public enum AxisMappingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three signed axis letters.
    case malformed
    /// An axis appears twice, so the mapping loses a dimension.
    case repeatedAxis
    /// A mirror image (determinant −1).
    case reflection

    public var description: String {
        switch self {
        case .malformed: "expected three signed axes such as +x+y+z"
        case .repeatedAxis: "each of x, y and z must appear exactly once"
        case .reflection: "this is a mirror image (determinant −1), not a rotation; flip one sign"
        }
    }
}

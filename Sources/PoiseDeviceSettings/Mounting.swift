/// How the chip is mounted on the board: one of the 24 axis-aligned rotations that take
/// chip axes to body axes.
///
/// Written as three signed chip axes, one per body axis in the order x, y, z:
/// `"+y-x+z"` means body x = chip +y, body y = chip −x, body z = chip +z (the chip turned
/// 90° about z). Mirror images (determinant −1) are rejected: no soldering produces them.
@frozen
public struct Mounting: Sendable, Hashable, CustomStringConvertible {
    /// Columns of the chip-to-body matrix: `body = column0·chip.x + column1·chip.y + column2·chip.z`.
    public let column0: SIMD3<Float>
    public let column1: SIMD3<Float>
    public let column2: SIMD3<Float>

    /// The chip axes coincide with the body axes.
    public static let identity = Mounting(uncheckedRows: [(0, 1), (1, 1), (2, 1)])

    /// Parses `"+x+y+z"`-style text; see the type's documentation. The one parser of the
    /// notation: the configuration's `board.mounting` (PoiseConfig's `AxisMapping`) is this type.
    public init(_ text: String) throws(MountingError) {
        let characters = Array(text.filter { !$0.isWhitespace })
        guard characters.count == 6 else { throw MountingError(text: text, reason: .syntax) }
        var rows: [(axis: Int, sign: Float)] = []
        for index in stride(from: 0, to: 6, by: 2) {
            let sign: Float
            switch characters[index] {
            case "+": sign = 1
            case "-", "−": sign = -1
            default: throw MountingError(text: text, reason: .syntax)
            }
            guard let axis = ["x", "y", "z"].firstIndex(of: characters[index + 1].lowercased()) else {
                throw MountingError(text: text, reason: .syntax)
            }
            if rows.contains(where: { $0.axis == axis }) {
                throw MountingError(text: text, reason: .repeatedAxis(["x", "y", "z"][axis]))
            }
            rows.append((axis, sign))
        }
        let mounting = Mounting(uncheckedRows: rows)
        guard mounting.determinant > 0 else { throw MountingError(text: text, reason: .reflection) }
        self = mounting
    }

    /// Row `i` picks chip axis `rows[i].axis` with sign `rows[i].sign`.
    init(uncheckedRows rows: [(axis: Int, sign: Float)]) {
        var columns = [SIMD3<Float>](repeating: .zero, count: 3)
        for (bodyAxis, row) in rows.enumerated() { columns[row.axis][bodyAxis] = row.sign }
        column0 = columns[0]
        column1 = columns[1]
        column2 = columns[2]
    }

    /// Maps a chip-frame vector to the body frame.
    @inlinable @inline(__always)
    public func chipToBody(_ v: SIMD3<Float>) -> SIMD3<Float> {
        column0 * v.x + column1 * v.y + column2 * v.z
    }

    /// Maps a body-frame vector to the chip frame (the transpose; used by the simulator).
    @inlinable @inline(__always)
    public func bodyToChip(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((column0 * v).sum(), (column1 * v).sum(), (column2 * v).sum())
    }

    /// +1 for a rotation, −1 for a mirror image.
    public var determinant: Float {
        let c = column1, d = column2
        let cross = SIMD3(c.y * d.z - c.z * d.y, c.z * d.x - c.x * d.z, c.x * d.y - c.y * d.x)
        return (column0 * cross).sum()
    }

    /// All 24 proper axis-aligned mountings.
    public static let all: [Mounting] = {
        var result: [Mounting] = []
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for permutation in permutations {
            for signs in 0..<8 {
                var rows: [(axis: Int, sign: Float)] = []
                for bodyAxis in 0..<3 { rows.append((axis: permutation[bodyAxis], sign: signs >> bodyAxis & 1 == 0 ? 1 : -1)) }
                let mounting = Mounting(uncheckedRows: rows)
                if mounting.determinant > 0 { result.append(mounting) }
            }
        }
        return result
    }()

    /// The `"+x+y+z"` form.
    public var description: String {
        var text = ""
        for bodyAxis in 0..<3 {
            for (chipAxis, column) in [column0, column1, column2].enumerated() where column[bodyAxis] != 0 {
                text += (column[bodyAxis] > 0 ? "+" : "-") + ["x", "y", "z"][chipAxis]
            }
        }
        return text
    }
}

/// Why a mounting string was rejected: the text and the reason, said as `` `+x+y-z`: this is a
/// mirror image … `` (the configuration check prefixes the file, line and key).
public struct MountingError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// Not three signed axis letters.
        case syntax
        /// A chip axis appears twice, so the mapping loses a dimension.
        case repeatedAxis(String)
        /// A mirror image (determinant −1).
        case reflection

        public var description: String {
            switch self {
            case .syntax: "expected three signed axes such as +x+y+z"
            case .repeatedAxis: "each of x, y and z must appear exactly once"
            case .reflection: "this is a mirror image (determinant −1), not a rotation; flip one sign"
            }
        }
    }
    public var text: String
    public var reason: Reason

    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "`\(text)`: \(reason)" }
}

import PoiseMath

/// How a trace's columns map onto `TraceSample`.
///
/// Required: `t,ax,ay,az,gx,gy,gz`. Optional groups, all or none: `mx,my,mz` and
/// `qw,qx,qy,qz`. Any other column is carried along untouched. Order is free.
public struct TraceColumns: Equatable, Sendable {
    /// The standard column names; a column's *role* is its index here.
    public static let standardNames = ["t", "ax", "ay", "az", "gx", "gy", "gz",
                                       "mx", "my", "mz", "qw", "qx", "qy", "qz"]
    /// The canonical column list for samples with the given optional groups.
    public static func standard(magnetometer: Bool = true, truth: Bool = true) -> [String] {
        Array(standardNames[0..<7]) + (magnetometer ? ["mx", "my", "mz"] : []) + (truth ? ["qw", "qx", "qy", "qz"] : [])
    }

    /// Role value of a column that is not a standard one.
    public static let extraRole: UInt8 = 255
    static let magnetometerRoles: ClosedRange<UInt8> = 7...9
    static let truthRoles: ClosedRange<UInt8> = 10...13

    public let names: [String]
    /// Per column: its role (index into `standardNames`) or `extraRole`.
    public let roles: [UInt8]
    /// Per role: the column index, or -1 when the column is absent.
    public let columnOfRole: [Int]

    public var hasMagnetometer: Bool { columnOfRole[7] >= 0 }
    public var hasTruth: Bool { columnOfRole[10] >= 0 }
    /// Whether column `index` is one `TraceSample` does not hold.
    public func isExtra(_ index: Int) -> Bool { roles[index] == Self.extraRole }

    /// A header problem: the offending column index (nil: the header as a whole) and message.
    public struct Problem: Error, Equatable {
        public var column: Int?
        public var message: String
    }

    /// Checks a header: no empty or duplicate names, required columns present, groups complete.
    public init(names: [String]) throws(Problem) {
        try self.init(mapping: names, partialGroupsAsExtra: false)
        try checkComplete()
    }

    /// Maps any set of unique, non-empty names (for example an estimates file with
    /// `t,qw,qx,qy,qz`); required columns may be missing. Writers accept this. The columns
    /// of a partly present optional group (say `t,qw`) are extra columns: a sample holds a
    /// group whole or not at all, so no row can refer to a group member that is absent.
    public init(anyNames names: [String]) throws(Problem) {
        try self.init(mapping: names, partialGroupsAsExtra: true)
    }

    private init(mapping names: [String], partialGroupsAsExtra: Bool) throws(Problem) {
        var roles: [UInt8] = []
        var columnOfRole = [Int](repeating: -1, count: Self.standardNames.count)
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            if name.isEmpty { throw Problem(column: index, message: "empty column name") }
            if !seen.insert(name).inserted { throw Problem(column: index, message: "duplicate column '\(name)'") }
            if let role = Self.standardNames.firstIndex(of: name) {
                roles.append(UInt8(role))
                columnOfRole[role] = index
            } else {
                roles.append(Self.extraRole)
            }
        }
        if partialGroupsAsExtra {
            for group in [Self.magnetometerRoles, Self.truthRoles] {
                let present = group.filter { columnOfRole[Int($0)] >= 0 }
                guard !present.isEmpty && present.count != group.count else { continue }
                for role in present {
                    roles[columnOfRole[Int(role)]] = Self.extraRole
                    columnOfRole[Int(role)] = -1
                }
            }
        }
        self.names = names
        self.roles = roles
        self.columnOfRole = columnOfRole
    }

    /// Whether this is a readable trace: required columns present, optional groups complete.
    public var isCompleteTrace: Bool { (try? checkComplete()) != nil }

    func checkComplete() throws(Problem) {
        for role in 0..<7 where columnOfRole[role] < 0 {
            let name = Self.standardNames[role]
            if let near = names.firstIndex(where: { $0.trimmingSpaces == name }) {
                if names[near].unicodeScalars.contains("\r") {
                    throw Problem(column: near, message: "missing required column '\(name)' (it ends in a stray carriage return)")
                }
                throw Problem(column: near, message: "missing required column '\(name)' ('\(names[near])' has spaces around it)")
            }
            throw Problem(column: nil, message: "missing required column '\(name)'")
        }
        for group in [Self.magnetometerRoles, Self.truthRoles] {
            let present = group.filter { columnOfRole[Int($0)] >= 0 }
            if !present.isEmpty && present.count != group.count {
                let all = group.map { Self.standardNames[Int($0)] }.joined(separator: ",")
                let missing = group.first { columnOfRole[Int($0)] < 0 }!
                throw Problem(column: nil, message: "columns \(all) must be all present or all absent: missing '\(Self.standardNames[Int(missing)])'")
            }
        }
    }
}

/// The standard values of one row while it is being read: role → value, plus which roles
/// had a value. Turned into a `TraceSample` once the row is complete.
@usableFromInline
struct RowValues {
    @usableFromInline var time: Double = 0
    /// Index = role (1...13); index 0 unused. Not a SIMD vector: lanes are written one at a
    /// time, and reading them back as a vector would stall on store forwarding.
    @usableFromInline var values = InlineArray<16, Float>(repeating: 0)
    /// Bit `role` set when that role had a value.
    @usableFromInline var present: UInt16 = 0

    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    init() {}

    @inlinable static var magnetometerMask: UInt16 { 0b0000_0011_1000_0000 }
    @inlinable static var truthMask: UInt16 { 0b0011_1100_0000_0000 }

    /// Fills `result`; returns 0, or the role of an empty cell that leaves an optional group
    /// partly filled — the caller turns that into a located error.
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    func sample(_ result: inout TraceSample) -> Int {
        let v = values
        result.time = time
        result.accelerometer = SIMD3(v[1], v[2], v[3])
        result.gyroscope = SIMD3(v[4], v[5], v[6])
        let magnetometer = present & Self.magnetometerMask
        if magnetometer == Self.magnetometerMask {
            result.magnetometer = SIMD3(v[7], v[8], v[9])
        } else if magnetometer == 0 {
            result.magnetometer = nil
        } else {
            return Self.firstMissing(present, in: 7...9)
        }
        let truth = present & Self.truthMask
        if truth == Self.truthMask {
            result.truth = .init(components: SIMD4(v[10], v[11], v[12], v[13]))
        } else if truth == 0 {
            result.truth = nil
        } else {
            return Self.firstMissing(present, in: 10...13)
        }
        return 0
    }

    @inlinable
    static func firstMissing(_ present: UInt16, in roles: ClosedRange<Int>) -> Int {
        for role in roles where present & (1 << role) == 0 { return role }
        return roles.lowerBound
    }

    /// Message for a partly empty optional group.
    static func partialGroupMessage(role: Int) -> String {
        let names = role >= 10 ? "qw,qx,qy,qz" : "mx,my,mz"
        return "empty cell in '\(TraceColumns.standardNames[role])': \(names) must be all filled or all empty"
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}

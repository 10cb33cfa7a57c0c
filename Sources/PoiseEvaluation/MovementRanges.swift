/// A malformed `# movement=` value.
public struct MovementRangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending value.
    public var value: String
    /// What is wrong with it.
    public var reason: String

    public init(value: String, reason: String) {
        self.value = value
        self.reason = reason
    }

    public var description: String { "movement: \(reason) in '\(value)'" }
}

/// Parses a trace's `movement` metadata value: comma-separated 0-based data-row ranges
/// `a:b` meaning rows `a ..< b`, e.g. `"9656:45663"` or `"100:200,300:400"`.
///
/// Ranges must be non-empty (`a < b`), non-negative and in increasing, non-overlapping order.
/// Spaces around numbers are allowed.
public func movementRanges(from metadataValue: String) throws(MovementRangeError) -> [Range<Int>] {
    func fail(_ reason: String) -> MovementRangeError {
        MovementRangeError(value: metadataValue, reason: reason)
    }
    let trimmed = metadataValue.trimmingSpaces
    guard !trimmed.isEmpty else { throw fail("no ranges") }
    var ranges: [Range<Int>] = []
    for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
        let bounds = part.split(separator: ":", omittingEmptySubsequences: false)
        guard bounds.count == 2 else {
            throw fail("expected 'start:end', got '\(part.trimmingSpaces)'")
        }
        guard let start = Int(bounds[0].trimmingSpaces), let end = Int(bounds[1].trimmingSpaces)
        else { throw fail("'\(part.trimmingSpaces)' is not two whole numbers") }
        guard start >= 0 else { throw fail("negative row \(start)") }
        guard start < end else { throw fail("empty range \(start):\(end)") }
        if let last = ranges.last, start < last.upperBound {
            throw fail("range \(start):\(end) overlaps or precedes \(last.lowerBound):\(last.upperBound)")
        }
        ranges.append(start..<end)
    }
    return ranges
}

/// True when `row` lies in one of `ranges` (sorted, as returned by `movementRanges(from:)`).
public func isScored(row: Int, in ranges: [Range<Int>]) -> Bool {
    for range in ranges where range.contains(row) { return true }
    return false
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}

/// Shortest round-trip decimal text for Float and Double, written straight into a buffer.
///
/// Uses the Swift runtime's own converter (the one behind `description`): it produces the
/// shortest digits that parse back to the same bits, and calling it directly avoids
/// building a `String` per value.
@usableFromInline
enum NumberFormatting {
    /// Bytes a formatted value can take at most (the runtime needs 32).
    @inlinable static var maximumLength: Int {
        @inline(__always) @_semantics("no_performance_analysis") get { 32 }
    }

    /// Writes `value` at `p` (≥ `maximumLength` bytes free); returns the byte count.
    // A real call excluded from the performance analysis, which cannot see into the runtime.
    @inlinable @inline(never) @_semantics("no_performance_analysis")
    static func write(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: _poiseFloat32ToString(p, UInt(maximumLength), value, false))
    }

    // A real call excluded from the performance analysis, which cannot see into the runtime.
    @inlinable @inline(never) @_semantics("no_performance_analysis")
    static func write(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: _poiseFloat64ToString(p, UInt(maximumLength), value, false))
    }
}

// The runtime entry points behind `Float.description` / `Double.description`.
@usableFromInline @_silgen_name("swift_float32ToString")
func _poiseFloat32ToString(_ buffer: UnsafeMutablePointer<UInt8>, _ length: UInt, _ value: Float, _ debug: Bool) -> UInt64

@usableFromInline @_silgen_name("swift_float64ToString")
func _poiseFloat64ToString(_ buffer: UnsafeMutablePointer<UInt8>, _ length: UInt, _ value: Double, _ debug: Bool) -> UInt64

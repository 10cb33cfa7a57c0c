/// Square root usable inside `@_noAllocation` functions.
///
/// The performance checker cannot see through `Float.squareRoot()` on Linux, so the hot path
/// calls this wrapper, which is excluded from the analysis; it compiles to one `sqrtss`.
@inlinable @inline(__always)
@_semantics("no_performance_analysis")
public func squareRoot(_ x: Float) -> Float { x.squareRoot() }

/// `1 / sqrt(x)`, excluded from performance analysis like `squareRoot(_:)`.
@inlinable @inline(__always)
@_semantics("no_performance_analysis")
public func reciprocalSquareRoot(_ x: Float) -> Float { 1 / x.squareRoot() }

/// Square root usable inside `@_noAllocation` functions.
///
/// The performance checker cannot see through `Float.squareRoot()` (a C shim), so the hot
/// path calls this wrapper, which is excluded from the analysis. It must stay a real call
/// (`@inline(never)`): once inlined into another `@inlinable` body the exclusion is lost and
/// callers in other modules are rejected. The call costs about a nanosecond.
@inlinable @inline(never)
@_semantics("no_performance_analysis")
public func squareRoot(_ x: Float) -> Float { x.squareRoot() }

/// `1 / sqrt(x)`, excluded from performance analysis like `squareRoot(_:)`.
@inlinable @inline(never)
@_semantics("no_performance_analysis")
public func reciprocalSquareRoot(_ x: Float) -> Float { 1 / x.squareRoot() }

/// Two square roots in one call, excluded from performance analysis like `squareRoot(_:)`:
/// every call spills the caller's live vector registers, so one call beats two.
@inlinable @inline(never)
@_semantics("no_performance_analysis")
public func squareRoots(_ x: SIMD2<Float>) -> SIMD2<Float> { x.squareRoot() }

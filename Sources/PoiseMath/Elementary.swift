#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Elementary functions from the C library, excluded from performance analysis so the
// `@_noAllocation` real-time path may call them (libm never allocates). Kept as real calls
// for the reason given in SquareRoot.swift.

@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _sin(_ x: Float) -> Float { sinf(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _cos(_ x: Float) -> Float { cosf(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _atan2(_ y: Float, _ x: Float) -> Float { atan2f(y, x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _asin(_ x: Float) -> Float { asinf(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _acos(_ x: Float) -> Float { acosf(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _exp(_ x: Float) -> Float { expf(x) }

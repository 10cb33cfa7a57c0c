// What the Embedded Swift runtime leaves to the program, for the board binary only: the
// host build compiles nothing of this file.
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay

/// `Double(String)` (the trace's `rate_hz`, as PoiseReplay's feed reads it) calls this hook
/// of Swift's runtime, which Embedded Swift does not ship. It does what the host runtime's
/// does (stdlib/public/stubs/Stubs.cpp): `snan` (any case, optionally signed) is a signaling
/// NaN, anything else goes to the C library's `strtod` in the C locale (this program never
/// calls `setlocale`); the caller accepts the text only if the returned end is its end.
@_cdecl("_swift_stdlib_strtod_clocale")
public func _swiftStdlibStrtodCLocale(_ text: UnsafePointer<CChar>, _ result: UnsafeMutablePointer<Double>) -> UnsafePointer<CChar>? {
    let unsigned = text[0] == 0x2B || text[0] == 0x2D ? text + 1 : text
    if strcasecmp(unsigned, "snan") == 0 {
        result.pointee = text[0] == 0x2D ? -Double.signalingNaN : Double.signalingNaN
        return text + strlen(text)
    }
    var end: UnsafeMutablePointer<CChar>? = nil
    poise_libc_set_errno(0)
    result.pointee = strtod(text, &end)
    return UnsafePointer(end)
}
#endif

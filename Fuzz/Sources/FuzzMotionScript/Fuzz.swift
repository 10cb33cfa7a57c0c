import FuzzSupport
import PoiseMotion

/// The motion-script parser: any text is a script or an error with its line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = FuzzInput.text(data, size)
    do throws(MotionScriptError) {
        let script = try MotionScript(parsing: text, name: "fuzz.motion")
        _ = script.segments.count
    } catch {
        FuzzInput.require("\(error)".hasPrefix("fuzz.motion"), "error without the file: \(error)")
    }
    return 0
}

@_cdecl("FuzzMotionScript_main")
public func fuzzMain(_ argc: Int32, _ argv: CArguments?) -> Int32 { runFuzzer(argc, argv, fuzz) }

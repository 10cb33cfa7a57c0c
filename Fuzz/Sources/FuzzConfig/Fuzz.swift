import FuzzSupport
import PoiseConfig

/// The config loader and validator: any text is a configuration or a list of errors, each
/// naming the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = FuzzInput.text(data, size)
    do throws(ConfigErrors) {
        _ = try PoiseConfiguration.parse(text: text, file: "fuzz.yaml")
    } catch {
        let description = error.description
        FuzzInput.require(description.hasPrefix("fuzz.yaml"), "error without the file: \(description)")
        for line in description.split(separator: "\n") {
            FuzzInput.require(line.utf8.count <= 1000, "error line of \(line.utf8.count) bytes: the input is echoed")
        }
    }
    return 0
}

@_cdecl("FuzzConfig_main")
public func fuzzMain(_ argc: Int32, _ argv: CArguments?) -> Int32 { runFuzzer(argc, argv, fuzz) }

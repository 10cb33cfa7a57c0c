import FuzzSupport
import PoiseTraces

/// Binary traces (through `TraceReader`, which sniffs the format): seeded with binary
/// traces from `poise convert`, so mutations land in headers and records.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FuzzInput.write(data, size) else { return 0 }
    do throws(TraceError) {
        var reader = try TraceReader(path: FuzzInput.path)
        while try reader.next() != nil {
            for column in reader.columns.indices {
                _ = try reader.doubleValue(ofColumn: column)
                _ = reader.position(ofColumn: column)
            }
        }
    } catch {
        FuzzInput.require(error.description.hasPrefix(FuzzInput.path + ":"), "error without the file: \(error)")
    }
    return 0
}

@_cdecl("FuzzBinaryReader_main")
public func fuzzMain(_ argc: Int32, _ argv: CArguments?) -> Int32 { runFuzzer(argc, argv, fuzz) }

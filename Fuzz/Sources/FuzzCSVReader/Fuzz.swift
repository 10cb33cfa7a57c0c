import FuzzSupport
import PoiseTraces

/// Text traces: every input is read to its end or refused with `FILE:…: message`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FuzzInput.write(data, size) else { return 0 }
    for sensorTrace in [true, false] {
        do throws(TraceError) {
            var reader = try CSVTraceReader(path: FuzzInput.path, sensorTrace: sensorTrace)
            while let sample = try reader.next() {
                FuzzInput.require(sample.time.isFinite, "non-finite time accepted")
                for column in reader.columns.indices {
                    _ = try reader.doubleValue(ofColumn: column)
                    _ = reader.cellText(column)
                    _ = reader.characterColumn(ofColumn: column)
                }
            }
        } catch {
            FuzzInput.require(error.description.hasPrefix(FuzzInput.path + ":"), "error without the file: \(error)")
        }
    }
    return 0
}

@_cdecl("FuzzCSVReader_main")
public func fuzzMain(_ argc: Int32, _ argv: CArguments?) -> Int32 { runFuzzer(argc, argv, fuzz) }

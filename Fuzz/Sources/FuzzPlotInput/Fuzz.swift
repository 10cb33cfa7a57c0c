import FuzzSupport
import PoisePlot
import PoiseTraces

/// The plot input path of `poise plot`: any file is read into a column table and plotted,
/// or refused with its file name (partial column groups once crashed here).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FuzzInput.write(data, size) else { return 0 }
    do throws(TraceError) {
        let table = try ColumnTable(path: FuzzInput.path)
        let panels = table.values.keys.sorted().prefix(4).map { name in
            PlotPanel(title: name, yLabel: name, series: [PlotSeries(name: name, x: table.time, y: table.values[name]!)],
                      wrapPeriod: name == "yaw" ? 360 : nil)
        }
        _ = SVGPlot(title: "fuzz", xLabel: "t", panels: Array(panels)).render()
    } catch {
        FuzzInput.require(error.description.hasPrefix(FuzzInput.path + ":"), "error without the file: \(error)")
    }
    return 0
}

@_cdecl("FuzzPlotInput_main")
public func fuzzMain(_ argc: Int32, _ argv: CArguments?) -> Int32 { runFuzzer(argc, argv, fuzz) }

import ArgumentParser
import PoiseMath
import PoisePlot
import PoiseTraces

/// `poise plot`: an SVG of chosen columns over time.
struct PlotCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Plot columns of traces or estimates over time as an SVG.",
        discussion: """
            One panel per column, one line per file. Angle columns (roll, pitch, yaw, tilt and \
            their true_ forms) are drawn in degrees and break at the ±180° wrap. A column \
            `true_NAME` in the same file (from `poise replay --columns truth`), or the ground \
            truth of --truth TRACE, is drawn dashed in NAME's panel. Open the SVG in a browser.

            Examples:
              poise replay run.csv --columns truth -o est.csv && poise plot est.csv -o est.svg
              poise plot est-poise.csv est-madgwick.csv --columns yaw --truth run.csv -o yaw.svg
              poise plot run.csv --columns gx,gy,gz -o gyro.svg
            """)

    @Argument(help: "CSV traces or replay estimates (the first column t, in seconds).")
    var files: [String]

    @Option(help: "Columns to plot, comma-separated (default: roll,pitch,yaw when present, else ax..gz).")
    var columns: String?

    @Option(help: "A trace whose ground truth (qw..qz) is drawn as true roll, pitch and yaw.")
    var truth: String?

    @Option(help: "Title of the plot.")
    var title: String?

    @OptionGroup var reading: TraceInputOptions

    @Option(name: .shortAndLong, help: "Output SVG file (- for standard output).")
    var output: String = "plot.svg"

    func execute() throws {
        Interruption.install()
        reading.apply()
        var tables: [(name: String, table: ColumnTable)] = []
        var chosen = columns.map { $0.split(separator: ",").map { String($0).trimmed } }
        for file in files {
            let progress = ProgressBar(total: nil, enabled: true)
            let table = try ColumnTable(path: file, keeping: { names in
                // The first file's header decides the default columns.
                if chosen == nil { chosen = Self.defaultColumns(Set(names)) }
                return Set(chosen!.flatMap { [$0, "true_" + $0] } + ["pitch", "true_pitch"])
            }, progress: progress.update)
            progress.finish()
            tables.append((traceName(file), table))
        }
        let wanted = chosen ?? []
        var truthTable: ColumnTable?
        if let truth { truthTable = try ColumnTable(truthEulerOf: truth) }

        if Interruption.requested { return }  // a plot of part of the data would pass for all of it
        let gimbalNote = Self.gimbalLockNote(tables.map(\.table) + (truthTable.map { [$0] } ?? []), columns: wanted)
        if let gimbalNote { printError("poise: note: \(gimbalNote)") }
        var panels: [PlotPanel] = []
        for column in wanted {
            let angle = isAngle(column)
            var series: [PlotSeries] = []
            for (name, table) in tables {
                guard let values = table.values[column] else {
                    throw CLIError("\(table.path): no column '\(column)' (columns: \(table.names.joined(separator: ",")))")
                }
                series.append(PlotSeries(name: tables.count > 1 ? name : column, x: table.time,
                                         y: angle ? values.map(toDegrees) : values))
                if let trueValues = table.values["true_" + column], tables.count == 1 {
                    series.append(.truth(name: "truth", x: table.time, y: trueValues.map(toDegrees)))
                }
            }
            if let truthTable, let values = truthTable.values[column] {
                series.append(.truth(name: "truth", x: truthTable.time, y: values.map(toDegrees)))
            }
            let ambiguous = gimbalNote != nil && ["roll", "yaw", "true_roll", "true_yaw"].contains(column)
            panels.append(PlotPanel(title: ambiguous ? "\(column) — \(gimbalNote!)" : column, yLabel: angle ? "\(column) (°)" : column, series: series,
                                    wrapPeriod: angle ? 360 : nil))
        }
        let plot = SVGPlot(title: title ?? files.map(traceName).joined(separator: " vs "),
                           xLabel: "time (s)", panels: panels)
        try writeTextFile(plot.render(), to: output)
    }

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one trace or estimate FILE to plot.") }
    }

    /// Near ±90° pitch, roll and yaw are ill-defined (gimbal lock): they jump although the
    /// attitude does not, which looks like a filter failure. Nil when no plotted pitch
    /// comes within 5° of ±90°.
    static func gimbalLockNote(_ tables: [ColumnTable], columns: [String]) -> String? {
        guard columns.contains(where: { ["roll", "yaw", "true_roll", "true_yaw"].contains($0) }) else { return nil }
        for table in tables {
            for name in ["pitch", "true_pitch"] {
                guard let pitch = table.values[name],
                      let index = pitch.firstIndex(where: { abs($0) * 180 / .pi > 85 }) else { continue }
                return "pitch is near ±90° from t = \(formatted(table.time[index], digits: 2)) s: roll and yaw jump there "
                    + "by construction (gimbal lock), not by filter error; plot tilt,heading or qw,qx,qy,qz instead"
            }
        }
        return nil
    }

    private static func defaultColumns(_ names: Set<String>) -> [String] {
        if ["roll", "pitch", "yaw"].allSatisfy(names.contains) { return ["roll", "pitch", "yaw"] }
        return ["ax", "ay", "az", "gx", "gy", "gz"].filter(names.contains)
    }

    private func isAngle(_ column: String) -> Bool {
        let base = column.hasPrefix("true_") ? String(column.dropFirst(5)) : column
        return ["roll", "pitch", "yaw", "tilt"].contains(base)
    }
}

private func toDegrees(_ radians: Double) -> Double { radians * 180 / .pi }

extension String {
    var trimmed: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}


import ArgumentParser
import PoiseMath
import PoisePlot
import PoiseReplay
import PoiseTraces

/// `poise plot`: an SVG of chosen columns over time.
struct PlotCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Plot columns of traces or estimates over time as an SVG.",
        discussion: """
            One panel per column, one line per file, each axis labelled with its unit. Without \
            --columns: roll, pitch and yaw — an estimate's own columns, a recording's estimate \
            (est_qw..est_qz) with its simulated truth (qw..qz) dashed, or a trace's ground truth \
            — and ax..gz only for a trace that holds no attitude. A recording's out_NAME columns \
            are drawn in their channel's unit from its embedded configuration (or --config). Angle \
            columns (roll, pitch, yaw, tilt and their true_ forms) are drawn in degrees and break \
            at the ±180° wrap; heading in degrees from 0 to 360. A column `true_NAME` in the \
            same file (from `poise replay --columns truth`), or the ground truth of --truth \
            TRACE, is drawn dashed in NAME's panel; --truth is converted into the estimate's \
            `# frame=` (estimates in different frames are refused). Open the SVG in a browser.

            Examples:
              poise replay run.csv --columns truth -o est.csv && poise plot est.csv -o est.svg
              poise plot est-poise.csv est-madgwick.csv --columns yaw --truth run.csv -o yaw.svg
              poise plot run.csv --columns gx,gy,gz -o gyro.svg
              poise simulate --record sim.csv && poise plot sim.csv --columns out_left_pwm --config configs/sim-balancing-robot.yaml
            """)

    @Argument(help: "CSV traces or replay estimates (the first column t, in seconds).")
    var files: [String]

    @Option(help: "Columns to plot, comma-separated (default: the attitude, roll,pitch,yaw, when the file holds one; else ax..gz).")
    var columns: String?

    @Option(help: "A trace whose ground truth (qw..qz) is drawn as true roll, pitch and yaw.")
    var truth: String?

    @Option(help: "The config that made a recording (default: the one embedded in it): its out_NAME columns are drawn as duty (%) for PWM mapped by duty (an H-bridge), µs of high time for servo/ESC pulses, the level for GPIO.")
    var config: String?

    @Option(help: "Title of the plot.")
    var title: String?

    @OptionGroup var reading: TraceInputOptions

    @Option(name: .shortAndLong, help: "Output SVG file (- for standard output).")
    var output: String = "plot.svg"

    func execute() throws {
        Interruption.install()
        reading.apply()
        var outputs = try config.map { try loopConfiguration($0).outputs }
        var tables: [(name: String, table: ColumnTable)] = []
        var chosen = columns.map { $0.split(separator: ",").map { String($0).trimmed } }
        for file in files {
            let progress = ProgressBar(total: nil, enabled: true)
            var table = try ColumnTable(path: file, keeping: { names in
                // The first file's header decides the default columns.
                if chosen == nil { chosen = Self.defaultColumns(Set(names)) }
                return Set(chosen!.flatMap { [$0, "true_" + $0] } + ["pitch", "true_pitch"] + Self.quaternionColumns)
            }, progress: progress.update)
            progress.finish()
            Self.addAttitude(to: &table)
            if outputs == nil, chosen?.contains(where: { $0.hasPrefix("out_") }) == true {
                // A recording carries the configuration that made it: its channels' units.
                outputs = (try? EmbeddedConfiguration.configuration(in: table.metadata, trace: file))?.outputs
            }
            tables.append((traceName(file), table))
        }
        let wanted = chosen ?? []
        let frame = try Self.commonFrame(tables.map(\.table), comparingAngles: wanted.contains(where: isAngle))
        var truthTable: ColumnTable?
        if let truth { truthTable = try Self.truthTable(truth, in: frame) }

        if Interruption.requested { return }  // a plot of part of the data would pass for all of it
        let gimbalNote = Self.gimbalLockNote(tables.map(\.table) + (truthTable.map { [$0] } ?? []), columns: wanted)
        if let gimbalNote { printError("poise: note: \(gimbalNote)") }
        var panels: [PlotPanel] = []
        for column in wanted {
            let kind = PlotColumnKind(column, outputs: outputs)
            var series: [PlotSeries] = []
            for (name, table) in tables {
                guard let values = table.values[column] else {
                    throw CLIError("\(table.path): no column '\(column)' (columns: \(table.names.joined(separator: ",")))")
                }
                series.append(PlotSeries(name: tables.count > 1 ? name : column, x: table.time, y: values.map(kind.value)))
                if let trueValues = table.values["true_" + column], tables.count == 1 {
                    series.append(.truth(name: "truth", x: table.time, y: trueValues.map(kind.value)))
                }
            }
            if let truthTable, let values = truthTable.values[column] {
                series.append(.truth(name: "truth", x: truthTable.time, y: values.map(kind.value)))
            }
            let ambiguous = gimbalNote != nil && ["roll", "yaw", "true_roll", "true_yaw"].contains(column)
            panels.append(PlotPanel(title: ambiguous ? "\(column) — \(gimbalNote!)" : column, yLabel: kind.axisLabel, series: series,
                                    yRange: kind.range, yTickStep: kind.tickStep, wrapPeriod: kind.wrapPeriod))
        }
        let plot = SVGPlot(title: title ?? files.map(traceName).joined(separator: " vs "),
                           xLabel: "time (s)", panels: panels)
        try writeTextFile(plot.render(), to: output)
        if output != "-" { printError("poise: wrote \(panels.count) panel\(panels.count == 1 ? "" : "s") (\(wanted.joined(separator: ","))) to \(output)") }
    }

    /// The frame the estimates report attitudes in (their `# frame=` line; none: ENU, as a
    /// raw trace's truth and a recording's estimate are). Estimates in different frames cannot
    /// share an angle panel.
    static func commonFrame(_ tables: [ColumnTable], comparingAngles: Bool) throws -> OutputFrame {
        var found: (frame: OutputFrame, path: String)?
        for table in tables {
            var frame = OutputFrame.axes(.enu)
            if let name = table.metadata["frame"] {
                guard let parsed = OutputFrame(name: name) else {
                    throw CLIError("\(table.path): unknown frame '\(name)' in its '# frame=' line (known: \(OutputFrame.names.joined(separator: ", ")))")
                }
                frame = parsed
            }
            if let found, found.frame != frame, comparingAngles {
                throw CLIError("\(found.path) reports attitudes in frame \(found.frame.name) but \(table.path) in \(frame.name): "
                    + "their angles are not comparable; replay both with the same --frame")
            }
            if found == nil { found = (frame, table.path) }
        }
        return found?.frame ?? .axes(.enu)
    }

    /// The ground truth of `path` (body-to-ENU) as roll, pitch and yaw in the estimates' `frame`.
    static func truthTable(_ path: String, in frame: OutputFrame) throws -> ColumnTable {
        if frame == .reference(.xTrueNorthZVertical) {
            throw CLIError("\(path): its ground truth is in frame enu and the estimate in \(frame.name), whose declination "
                + "the estimate does not record; replay with --frame xMagneticNorthZVertical or --columns truth to compare them")
        }
        let table = try ColumnTable(truthEulerOf: path, in: frame)
        if frame != .axes(.enu) { printError("poise: note: \(path): ground truth (enu) drawn in the estimate's frame \(frame.name)") }
        return table
    }

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one trace or estimate FILE to plot.") }
    }

    /// The gimbal-lock note (`GimbalLockNote`) for the first plotted pitch near ±90°, when
    /// roll or yaw is plotted.
    static func gimbalLockNote(_ tables: [ColumnTable], columns: [String]) -> String? {
        guard columns.contains(where: { ["roll", "yaw", "true_roll", "true_yaw"].contains($0) }) else { return nil }
        for table in tables {
            for name in ["pitch", "true_pitch"] {
                guard let pitch = table.values[name] else { continue }
                if let note = GimbalLockNote.text(time: table.time, pitchDegrees: pitch.map(toDegrees),
                                                  suggestion: "plot tilt,heading or qw,qx,qy,qz instead") {
                    return note
                }
            }
        }
        return nil
    }

    /// The attitude when the file holds one (an estimate's angles, a recording's estimate
    /// quaternion, a trace's ground truth), else the raw sensor axes.
    static func defaultColumns(_ names: Set<String>) -> [String] {
        if ["roll", "pitch", "yaw"].allSatisfy(names.contains) { return ["roll", "pitch", "yaw"] }
        if ["est_qw", "est_qx", "est_qy", "est_qz"].allSatisfy(names.contains) { return ["roll", "pitch", "yaw"] }
        if ["qw", "qx", "qy", "qz"].allSatisfy(names.contains) { return ["roll", "pitch", "yaw"] }
        return ["ax", "ay", "az", "gx", "gy", "gz"].filter(names.contains)
    }

    static let quaternionColumns = ["est_qw", "est_qx", "est_qy", "est_qz", "qw", "qx", "qy", "qz"]

    /// A file without roll, pitch and yaw columns gets them from its quaternions: a
    /// recording's estimate (est_q…, body to ENU, the loop's attitude), with its simulated
    /// truth (q…) as true_ columns; a trace's ground truth alone as the angles.
    static func addAttitude(to table: inout ColumnTable) {
        guard table.values["roll"] == nil else { return }
        func angles(_ prefix: String) -> (roll: [Double], pitch: [Double], yaw: [Double])? {
            guard let w = table.values[prefix + "qw"], let x = table.values[prefix + "qx"],
                  let y = table.values[prefix + "qy"], let z = table.values[prefix + "qz"] else { return nil }
            var roll: [Double] = [], pitch: [Double] = [], yaw: [Double] = []
            for i in w.indices {
                let q = Quaternion(w: Float(w[i]), x: Float(x[i]), y: Float(y[i]), z: Float(z[i]))
                guard [w[i], x[i], y[i], z[i]].allSatisfy(\.isFinite), q.length > 0.5 else {
                    roll.append(.nan); pitch.append(.nan); yaw.append(.nan)
                    continue
                }
                let e = EulerAngles(q.normalized)
                roll.append(Double(e.roll)); pitch.append(Double(e.pitch)); yaw.append(Double(e.yaw))
            }
            return (roll, pitch, yaw)
        }
        let estimate = angles("est_"), truth = angles("")
        guard let shown = estimate ?? truth else { return }
        table.values["roll"] = shown.roll; table.values["pitch"] = shown.pitch; table.values["yaw"] = shown.yaw
        if estimate != nil, let truth {
            table.values["true_roll"] = truth.roll; table.values["true_pitch"] = truth.pitch; table.values["true_yaw"] = truth.yaw
        }
    }

}

private func isAngle(_ column: String) -> Bool { PlotColumnKind(column).wrapPeriod != nil }

private func toDegrees(_ radians: Double) -> Double { radians * 180 / .pi }

extension String {
    var trimmed: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}


import ArgumentParser
import PoiseTraces

extension TraceFormat: ExpressibleByArgument {}

/// `poise convert IN OUT`: text ↔ binary traces, losslessly.
struct ConvertCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between the text (CSV) and binary formats.",
        discussion: """
            The input format is detected from the file's first bytes. The output format comes \
            from --to, or else from OUT's extension: .ptrace or .bin for binary, .csv for text. \
            Metadata comment lines and unknown columns are carried along; values keep their \
            exact bits. Empty cells become NaN in a binary trace and empty again in text. \
            Unknown columns must be numeric to go into a binary trace. A regular OUT is written \
            to a temporary file beside it and renamed at the end, so a failed or interrupted \
            conversion leaves OUT as it was (docs/robustness.md).

            Example:
              poise convert walk.csv walk.ptrace
              poise convert walk.ptrace walk.csv
            """)

    @Argument(help: "The trace to read, text or binary ('-' for standard input).")
    var input: String

    @Argument(help: "The trace to write ('-' for standard output).")
    var output: String

    @Option(help: "The output format: csv or binary.")
    var to: TraceFormat?

    @OptionGroup var reading: TraceInputOptions

    func execute() throws {
        guard let format = to ?? TraceWriter.format(forPath: output) else {
            throw CLIError("\(output): cannot tell the output format from the name; use --to csv or --to binary")
        }
        Interruption.install()
        reading.apply()
        let rows = try Self.convert(from: input, to: output, format: format)
        if output != "-" && !Interruption.requested {
            printError("poise: wrote \(rows) samples to \(output) (\(format == .csv ? "text" : "binary"))")
        }
    }

    /// Copies every row, cell by cell, from `input` to `path`; returns the row count.
    static func convert(from input: String, to path: String, format: TraceFormat) throws(TraceError) -> Int {
        var reader = try TraceReader(path: input)
        reader.skipsTicksWithoutSample = false   // lossless: a recording's sample-less ticks too
        var writer = try TraceWriter(path: path, format: format, metadata: reader.metadata, columns: reader.columns)
        let roles = reader.layout.roles
        let copyText = reader.format == .csv && format == .csv
        var rows = 0
        while let sample = try reader.next() {
            rows += 1
            for (column, role) in roles.enumerated() {
                switch role {
                case 0: writer.append(sample.time)
                case 1...3: writer.append(sample.accelerometer[Int(role) - 1])
                case 4...6: writer.append(sample.gyroscope[Int(role) - 4])
                case 7...9:
                    if let m = sample.magnetometer { writer.append(m[Int(role) - 7]) } else { writer.appendEmpty() }
                case 10...13:
                    if let q = sample.truth { writer.append(q.components[Int(role) - 10]) } else { writer.appendEmpty() }
                default:
                    if copyText {
                        _ = writer.append(cellText: reader.cellText(column))
                    } else if reader.format == .csv {
                        if !writer.append(cellText: reader.cellText(column)) {
                            let position = reader.position(ofColumn: column)
                            throw TraceError(file: input, line: position.line, column: position.column,
                                             message: "column '\(reader.columns[column])' is not numeric; binary traces hold numbers only")
                        }
                    } else {
                        writer.append(try reader.doubleValue(ofColumn: column))
                    }
                }
            }
            writer.endRow()
        }
        try writer.close()
        return rows
    }
}


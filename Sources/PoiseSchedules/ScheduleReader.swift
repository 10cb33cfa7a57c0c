import PoiseTraces

/// The one reader of setpoint schedules: the quadrotor's ``SetpointSchedule`` and the balancing
/// robot's ``DriveSchedule`` are both a header of named columns and rows of finite numbers,
/// the first a time in seconds that rises row by row. `#` comment lines and blank lines are
/// skipped anywhere; lines end in LF or CR LF; fields are comma-separated, spaces and tabs
/// around them ignored.
///
/// Every error is a `TraceError`, `FILE:LINE:COLUMN: message` as the trace reader says it, the
/// column that of the offending field's first character. What the numbers mean (units, ranges)
/// is each schedule's, checked through ``Row/error(field:_:)``.
///
/// Not the trace reader itself (PoiseTraces' `CSVTraceReader`): a schedule is read from text
/// already in memory, may have comments between its rows, and must refuse a cut-off last row
/// that a recording's reader leaves out with a warning.
struct ScheduleReader {
    /// One data row: its numbers, and where each field starts.
    struct Row {
        let path: String
        let line: Int
        let values: [Double]
        let columns: [Int]

        /// An error at field `field` of this row.
        func error(field: Int, _ message: String) -> TraceError {
            TraceError(file: path, line: line, column: columns[field], message: message)
        }
    }

    /// Reads `text` (from `path`): a header that must be `header`, then at least one row.
    /// - Parameters:
    ///   - name: what the file is, for the header errors ("drive script": "drive script header must be …").
    ///   - rowName: what a row is ("drive setpoint": "no drive setpoint rows").
    static func rows(path: String, text: String, header: [String], name: String, rowName: String) throws(TraceError) -> [Row] {
        var rows: [Row] = []
        var lineNumber = 0
        var headerRead = false
        // "\r\n" is one Character: a spreadsheet's line breaks split lines too.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = Self.fields(of: line)
            if !headerRead {
                guard fields.map({ $0.text }) == header else {
                    throw TraceError(file: path, line: lineNumber, column: fields[0].column,
                                     message: "\(name) header must be \(header.joined(separator: ","))")
                }
                headerRead = true
                continue
            }
            guard fields.count == header.count else {
                // The first field too many, or the last one there is.
                let at = fields.count > header.count ? header.count : fields.count - 1
                throw TraceError(file: path, line: lineNumber, column: fields[at].column,
                                 message: "expected \(header.count) fields, got \(fields.count)")
            }
            var values: [Double] = []
            for field in fields {
                guard let v = Double(field.text), v.isFinite else {
                    throw TraceError(file: path, line: lineNumber, column: field.column, message: "`\(field.text)` is not a finite number")
                }
                values.append(v)
            }
            if let last = rows.last, values[0] <= last.values[0] {
                throw TraceError(file: path, line: lineNumber, column: fields[0].column,
                                 message: "times must rise (\(values[0]) after \(last.values[0]))")
            }
            rows.append(Row(path: path, line: lineNumber, values: values, columns: fields.map { $0.column }))
        }
        guard !rows.isEmpty else {
            throw TraceError(file: path, line: lineNumber, column: 1, message: headerRead ? "no \(rowName) rows" : "no \(name) header")
        }
        return rows
    }

    /// The comma-separated fields of a line, trimmed, each with its 1-based character column.
    static func fields(of line: Substring) -> [(text: String, column: Int)] {
        var fields: [(text: String, column: Int)] = []
        var column = 1
        for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
            let leading = cell.prefix { $0 == " " || $0 == "\t" }.count
            fields.append((cell.trimmingCharacters(in: " \t\r"), column + leading))
            column += cell.count + 1
        }
        return fields
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}

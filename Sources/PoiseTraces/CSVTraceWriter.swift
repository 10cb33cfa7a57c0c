/// Writes a text trace: metadata comment lines, a header, then one row per sample.
///
/// Floats and Doubles are written in the shortest form that reads back to the same bits,
/// so a trace survives any number of read/write cycles unchanged. NaN is written as an
/// empty cell (a missing value); infinities are written as `inf`, which readers reject.
/// Writing a row costs no allocation: cells go straight into a 64 KiB buffer.
///
/// Standard output is used for the path `-`.
public struct CSVTraceWriter: ~Copyable {
    public let path: String
    public let columns: TraceColumns
    var output: ByteOutput
    /// Role per column, outside any array so `write(_:)` stays allocation-free.
    let roles: UnsafeMutablePointer<UInt8>
    let columnCount: Int
    var cellIndex = 0
    /// Complete rows written so far.
    public private(set) var rowCount = 0

    /// Opens `path` under the output-file policy (`OutputFile`) and writes the metadata and header.
    /// Any unique, non-empty column names are accepted (an estimates file need not hold
    /// sensor columns); `write(_:)` fills the standard ones it finds.
    public init(path: String, metadata: TraceMetadata, columns: [String], mode: OutputMode = .atomic) throws(TraceError) {
        let layout: TraceColumns
        do { layout = try TraceColumns(anyNames: columns) } catch {
            throw TraceError(file: path, line: 0, column: 0, message: "invalid columns: \(error.message)")
        }
        for name in columns where name.contains(where: { $0 == "," || $0 == "\n" || $0 == "\r" }) {
            throw TraceError(file: path, line: 0, column: 0, message: "invalid column name '\(name)'")
        }
        if columns.first?.hasPrefix("#") == true {
            throw TraceError(file: path, line: 0, column: 0, message: "the first column name cannot start with '#'")
        }
        let file = try OutputFile(path: path, mode: mode)
        self.path = path
        self.columns = layout
        output = ByteOutput(file: file, capacity: 1 << 16)
        columnCount = columns.count
        roles = .allocate(capacity: columns.count)
        for (index, role) in layout.roles.enumerated() { roles[index] = role }
        for line in metadata.lines { output.write(line); output.write("\n") }
        output.write(columns.joined(separator: ",")); output.write("\n")
        output.endHeader()
    }

    deinit { roles.deallocate() }

    @inline(__always)
    mutating func separator() {
        precondition(cellIndex < columnCount, "more cells than columns in a row")
        output.reserve(NumberFormatting.maximumLength + 1)
        if cellIndex > 0 { output.buffer[output.count] = UInt8(ascii: ","); output.count += 1 }
        cellIndex += 1
    }

    /// Appends the next cell of the current row; NaN becomes an empty cell.
    @_noAllocation @inline(__always)
    public mutating func append(_ value: Float) {
        separator()
        if value.isNaN { return }
        output.count += NumberFormatting.write(value, to: output.buffer + output.count)
    }

    /// Appends the next cell of the current row; NaN becomes an empty cell.
    @_noAllocation @inline(__always)
    public mutating func append(_ value: Double) {
        separator()
        if value.isNaN { return }
        output.count += NumberFormatting.write(value, to: output.buffer + output.count)
    }

    /// Appends a whole number, without a decimal point (counters, flag bits).
    @_noAllocation
    public mutating func append(integer value: Int) {
        separator()
        var magnitude = value.magnitude
        var digits = 0
        repeat { digits += 1; magnitude /= 10 } while magnitude > 0
        let start = output.buffer + output.count
        if value < 0 { start[0] = UInt8(ascii: "-") }
        let sign = value < 0 ? 1 : 0
        magnitude = value.magnitude
        for index in stride(from: sign + digits - 1, through: sign, by: -1) {
            start[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        }
        output.count += sign + digits
    }

    /// Appends an empty cell (a missing value).
    @_noAllocation
    public mutating func appendEmpty() { separator() }

    /// Appends a cell's text verbatim (e.g. an unknown column copied from another trace).
    /// The text must not contain `,`, `\r` or `\n`.
    public mutating func append(cellText: UnsafeRawBufferPointer) {
        precondition(!cellText.contains(where: { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }), "cell text with a separator")
        separator()
        output.write(cellText)
    }

    /// Ends the current row; every column must have had a cell.
    @_noAllocation
    public mutating func endRow() {
        precondition(cellIndex == columnCount, "row has fewer cells than columns")
        output.reserve(1)
        output.buffer[output.count] = 0x0A
        output.count += 1
        output.endRecord()
        cellIndex = 0
        rowCount += 1
    }

    /// Writes a whole row from a sample: standard columns from its fields, unknown columns
    /// and absent optional values as empty cells.
    @_noAllocation
    public mutating func write(_ sample: TraceSample) {
        precondition(cellIndex == 0, "write(_:) in the middle of a row")
        for index in 0..<columnCount {
            let role = roles[index]
            if role == 0 {
                append(sample.time)
            } else if let value = sample.value(ofRole: role) {
                append(value)
            } else {
                appendEmpty()
            }
        }
        endRow()
    }

    /// Hands every whole row written so far to the kernel (a recorder calls this every
    /// `recording.flush_interval`, so a crash loses at most that much); a row in progress
    /// stays behind.
    public mutating func flush() { output.flush() }

    /// Asks the kernel to put what it was handed on the disk (fdatasync); errno or 0.
    public func sync() -> Int32 { output.sync() }

    /// The errno of the first failed write, 0 if none (the recorder reports it at once).
    public var writeError: Int32 { output.writeError }

    /// Flushes and closes the file; reports the first write error.
    public mutating func close() throws(TraceError) {
        try output.close()
    }
}

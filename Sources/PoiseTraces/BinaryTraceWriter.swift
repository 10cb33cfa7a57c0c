/// Writes a binary trace (see `BinaryTraceFormat`): header, then fixed-size records.
///
/// Column types follow `BinaryTraceFormat.defaultType(role:)` unless given. Cells are
/// appended in column order like `CSVTraceWriter`; an empty cell is stored as NaN.
public struct BinaryTraceWriter: ~Copyable {
    public let path: String
    public let columns: TraceColumns
    public let columnTypes: [BinaryTraceFormat.ColumnType]
    var output: ByteOutput
    let columnCount: Int
    let roles: UnsafeMutablePointer<UInt8>
    let isDouble: UnsafeMutablePointer<Bool>
    let recordSize: Int
    var cellIndex = 0
    /// Complete records written so far.
    public private(set) var rowCount = 0

    /// Opens `path` under the output-file policy (`OutputFile`) (`-` = standard output) and writes the header.
    /// Any unique, non-empty column names are accepted (an estimates file need not hold
    /// sensor columns); `write(_:)` fills the standard ones it finds.
    public init(path: String, metadata: TraceMetadata, columns: [String],
                types: [BinaryTraceFormat.ColumnType]? = nil, mode: OutputMode = .atomic) throws(TraceError) {
        let layout: TraceColumns
        do { layout = try TraceColumns(anyNames: columns) } catch {
            throw TraceError(file: path, line: 0, column: 0, message: "invalid columns: \(error.message)")
        }
        let types = types ?? layout.roles.map(BinaryTraceFormat.defaultType(role:))
        precondition(types.count == columns.count, "one type per column")
        for name in columns where name.utf8.count > 255 {
            throw TraceError(file: path, line: 0, column: 0, message: "column name longer than 255 bytes: '\(name)'")
        }
        if columns.count > BinaryTraceFormat.maximumColumnCount {
            throw TraceError(file: path, line: 0, column: 0, message: "more than \(BinaryTraceFormat.maximumColumnCount) columns")
        }
        let file = try OutputFile(path: path, mode: mode)
        self.path = path
        self.columns = layout
        columnTypes = types
        columnCount = columns.count
        recordSize = types.reduce(0) { $0 + $1.size }
        output = ByteOutput(file: file, capacity: max(1 << 16, recordSize))
        roles = .allocate(capacity: columns.count)
        isDouble = .allocate(capacity: columns.count)
        for index in columns.indices {
            roles[index] = layout.roles[index]
            isDouble[index] = types[index] == .float64
        }
        BinaryTraceFormat.header(columns: columns, types: types, metadata: metadata).withUnsafeBytes { output.write($0) }
        output.recordSize = recordSize
        output.endHeader()
    }

    deinit {
        roles.deallocate()
        isDouble.deallocate()
    }

    @inline(__always)
    mutating func store(_ value: Double, _ float: Float) {
        precondition(cellIndex < columnCount, "more cells than columns in a row")
        if cellIndex == 0 { output.reserve(recordSize) }
        let p = UnsafeMutableRawPointer(output.buffer + output.count)
        if isDouble[cellIndex] {
            p.storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
            output.count &+= 8
        } else {
            p.storeBytes(of: float.bitPattern.littleEndian, as: UInt32.self)
            output.count &+= 4
        }
        cellIndex &+= 1
    }

    /// Appends the next cell of the current record.
    @_noAllocation @inline(__always)
    public mutating func append(_ value: Float) { store(Double(value), value) }

    /// Appends the next cell of the current record (rounded if the column is f32).
    @_noAllocation @inline(__always)
    public mutating func append(_ value: Double) { store(value, Float(value)) }

    /// Appends a missing value (NaN).
    @_noAllocation
    public mutating func appendEmpty() { store(.nan, .nan) }

    /// Ends the current record; every column must have had a cell.
    @_noAllocation
    public mutating func endRow() {
        precondition(cellIndex == columnCount, "record has fewer cells than columns")
        output.endRecord()
        cellIndex = 0
        rowCount &+= 1
    }

    /// Writes a whole record from a sample; unknown columns and absent values become NaN.
    @_noAllocation
    public mutating func write(_ sample: TraceSample) {
        precondition(cellIndex == 0, "write(_:) in the middle of a record")
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

    /// Hands every whole record written so far to the kernel (a recorder calls this every
    /// `recording.flush_interval`, so a crash loses at most that much).
    public mutating func flush() { output.flush() }

    /// Asks the kernel to put what it was handed on the disk (fdatasync); errno or 0.
    public func sync() -> Int32 { output.sync() }

    /// The errno of the first failed write, 0 if none (the recorder reports it at once).
    public var writeError: Int32 { output.writeError }

    /// Flushes and closes the file; reports the first write error.
    public mutating func close() throws(TraceError) {
        precondition(cellIndex == 0, "close() in the middle of a record")
        try output.close()
    }
}

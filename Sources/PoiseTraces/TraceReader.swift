/// The two trace encodings.
public enum TraceFormat: String, Sendable, CaseIterable {
    case csv
    case binary
}

/// A trace reader for either format, chosen by the file's first bytes: binary traces start
/// with `POISETRC`, anything else is read as text. It holds one concrete reader (no
/// existential), so `next()` is a direct call that mutates it in place.
public struct TraceReader: ~Copyable {
    /// Whether the trace is binary (a Bool rather than `format` keeps the hot path free
    /// of enum comparisons).
    public let isBinary: Bool
    public var format: TraceFormat { isBinary ? .binary : .csv }
    var csv: CSVTraceReader?
    var binary: BinaryTraceReader?

    /// The path as given (`-` for standard input).
    public let path: String
    /// The comment lines before the header.
    public let metadata: TraceMetadata
    /// The column names, in file order.
    public let columns: [String]
    /// Which column is what.
    public let layout: TraceColumns

    /// Opens `path` (`-` = standard input) and reads its header.
    /// - Parameter sensorTrace: for text traces, require the sensor columns (see
    ///   `CSVTraceReader.init(path:sensorTrace:)`).
    public init(path: String, sensorTrace: Bool = true) throws(TraceError) {
        let fd = try openForReading(path)
        var input = ByteInput(fd: fd, ownsDescriptor: path != "-", capacity: CSVTraceReader.maximumLineLength)
        while input.available < 8 && input.refill() {}
        let binary = input.available >= 8 && BinaryTraceFormat.hasMagic(UnsafeRawPointer(input.buffer + input.start))
        if binary {
            self.init(try BinaryTraceReader(path: path, input: input))
        } else {
            self.init(try CSVTraceReader(path: path, input: input, sensorTrace: sensorTrace))
        }
    }

    /// Wraps an open text trace.
    public init(_ reader: consuming CSVTraceReader) {
        isBinary = false
        path = reader.path
        metadata = reader.metadata
        columns = reader.columns
        layout = reader.layout
        csv = consume reader
        binary = nil
    }

    /// Wraps an open binary trace.
    public init(_ reader: consuming BinaryTraceReader) {
        isBinary = true
        path = reader.path
        metadata = reader.metadata
        columns = reader.columns
        layout = reader.layout
        binary = consume reader
        csv = nil
    }

    /// The next sample, or nil at the end of the trace — or once a signal asked the command
    /// to stop (`Interruption`): every reading loop then ends on a whole row.
    @_noAllocation @inline(__always)
    public mutating func next() throws(TraceError) -> TraceSample? {
        if Interruption.requested { return nil }
        if !isBinary { return try csv!.next() }
        return try binary!.next()
    }

    /// Line (text) or record (binary) number of the sample last returned.
    public var line: Int {
        switch csv {
        case .some(let reader): return reader.line
        case .none: break
        }
        switch binary {
        case .some(let reader): return reader.record
        case .none: return 0
        }
    }

    /// A column of the current row as a number; NaN when empty.
    public func doubleValue(ofColumn column: Int) throws(TraceError) -> Double {
        switch csv {
        case .some(let reader): return try reader.doubleValue(ofColumn: column)
        case .none: break
        }
        switch binary {
        case .some(let reader): return reader.doubleValue(ofColumn: column)
        case .none: return .nan
        }
    }

    /// Where a cell of the current row is, for error messages: line and character column
    /// (text), or record and 1-based byte within the record (binary).
    public func position(ofColumn column: Int) -> (line: Int, column: Int) {
        switch csv {
        case .some(let reader): return (reader.line, reader.characterColumn(ofColumn: column))
        case .none: break
        }
        switch binary {
        case .some(let reader): return (reader.record, reader.byteInRecord(ofColumn: column))
        case .none: return (0, 0)
        }
    }

    /// The raw text of a cell of the current row (text traces only; empty for binary).
    public func cellText(_ column: Int) -> UnsafeRawBufferPointer {
        switch csv {
        case .some(let reader): return reader.cellText(column)
        case .none: return UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }
}

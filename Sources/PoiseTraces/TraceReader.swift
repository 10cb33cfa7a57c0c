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
    /// The `sample` column of a `poise run` recording (-1: none). A row with 0 there is a
    /// tick that read no sample (start-up, a failed read); its sensor cells hold 0.
    public let sampleColumn: Int
    /// Skip the rows of ticks without a sample (true by default: filters, `eval` and
    /// `plot` want measurements). The tick replay and `convert` read every row.
    public var skipsTicksWithoutSample = true

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
        sampleColumn = reader.columns.firstIndex(of: "sample") ?? -1
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
        sampleColumn = reader.columns.firstIndex(of: "sample") ?? -1
        binary = consume reader
        csv = nil
    }

    /// The next sample, or nil at the end of the trace — or once a signal asked the command
    /// to stop (`Interruption`): every reading loop then ends on a whole row.
    @_noAllocation @inline(__always)
    public mutating func next() throws(TraceError) -> TraceSample? {
        while true {
            if Interruption.requested { return nil }
            let sample = !isBinary ? try csv!.next() : try binary!.next()
            guard sampleColumn >= 0, skipsTicksWithoutSample, case .some = sample else { return sample }
            if !isTickWithoutSample() { return sample }
        }
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

    /// Whether the current row's `sample` cell says 0. Reads the cell's bytes (text) or its
    /// stored value (binary); allocates nothing, but its callees are not annotated, so it is
    /// excluded from the analysis of `next()`.
    @inline(never) @_semantics("no_performance_analysis")
    func isTickWithoutSample() -> Bool {
        if isBinary { return (try? doubleValue(ofColumn: sampleColumn)) == 0 }
        let text = cellText(sampleColumn)
        guard let first = text.first else { return false }
        // `0`, `0.0`, `0e0`: a zero has no digit other than 0 before any exponent.
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
        }
        return first != UInt8(ascii: "n") && first != UInt8(ascii: "N")
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

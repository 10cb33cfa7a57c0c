/// What both trace writers offer: cells in column order, whole samples, close.
public protocol TraceWriting: ~Copyable {
    /// The columns being written.
    var columns: TraceColumns { get }
    mutating func append(_ value: Float)
    mutating func append(_ value: Double)
    /// A missing value: an empty cell in text, NaN in binary.
    mutating func appendEmpty()
    mutating func endRow()
    /// A whole row from a sample; columns it does not hold are left empty.
    mutating func write(_ sample: TraceSample)
    /// Flushes and closes; reports the first write error.
    mutating func close() throws(TraceError)
}

extension CSVTraceWriter: TraceWriting {}
extension BinaryTraceWriter: TraceWriting {}

/// A writer for either format chosen at run time (for example from a file extension),
/// holding one concrete writer in place of an existential.
public struct TraceWriter: ~Copyable, TraceWriting {
    /// Whether the trace is binary (a Bool rather than `format` keeps the hot path free
    /// of enum comparisons).
    public let isBinary: Bool
    public var format: TraceFormat { isBinary ? .binary : .csv }
    public let columns: TraceColumns
    var csv: CSVTraceWriter?
    var binary: BinaryTraceWriter?

    /// The format a path's extension implies: `.ptrace` and `.bin` are binary, `.csv` and
    /// `-` (standard output) text; nil for anything else.
    public static func format(forPath path: String) -> TraceFormat? {
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".ptrace") || lowercased.hasSuffix(".bin") { return .binary }
        if lowercased.hasSuffix(".csv") || path == "-" { return .csv }
        return nil
    }

    /// Creates (or truncates) `path` and writes the header in `format`.
    /// Any unique, non-empty column names are accepted.
    /// `mode: .live` for a recording written as it happens (see `OutputMode`).
    public init(path: String, format: TraceFormat, metadata: TraceMetadata, columns: [String],
                mode: OutputMode = .atomic) throws(TraceError) {
        isBinary = format == .binary
        if !isBinary {
            let writer = try CSVTraceWriter(path: path, metadata: metadata, columns: columns, mode: mode)
            self.columns = writer.columns
            csv = consume writer
            binary = nil
        } else {
            let writer = try BinaryTraceWriter(path: path, metadata: metadata, columns: columns, mode: mode)
            self.columns = writer.columns
            binary = consume writer
            csv = nil
        }
    }

    @_noAllocation @inline(__always)
    public mutating func append(_ value: Float) {
        if !isBinary { csv!.append(value) } else { binary!.append(value) }
    }

    @_noAllocation @inline(__always)
    public mutating func append(_ value: Double) {
        if !isBinary { csv!.append(value) } else { binary!.append(value) }
    }

    /// Rows written so far.
    public var rowCount: Int {
        switch csv {
        case .some(let writer): return writer.rowCount
        case .none: break
        }
        switch binary {
        case .some(let writer): return writer.rowCount
        case .none: return 0
        }
    }

    @_noAllocation @inline(__always)
    public mutating func appendEmpty() {
        if !isBinary { csv!.appendEmpty() } else { binary!.appendEmpty() }
    }

    /// Appends a cell's text verbatim to a text trace; a binary trace stores its value
    /// (NaN when empty). Returns false if the text is not a number a binary trace can hold.
    public mutating func append(cellText: UnsafeRawBufferPointer) -> Bool {
        if !isBinary { csv!.append(cellText: cellText); return true }
        guard let value = DecimalParsing.value(of: cellText) else { return false }
        binary!.append(value)
        return true
    }

    @_noAllocation @inline(__always)
    public mutating func endRow() {
        if !isBinary { csv!.endRow() } else { binary!.endRow() }
    }

    @_noAllocation @inline(__always)
    public mutating func write(_ sample: TraceSample) {
        if !isBinary { csv!.write(sample) } else { binary!.write(sample) }
    }

    /// See `CSVTraceWriter.flush()`.
    public mutating func flush() {
        if !isBinary { csv!.flush() } else { binary!.flush() }
    }

    /// See `CSVTraceWriter.sync()`.
    public func sync() -> Int32 {
        switch csv {
        case .some(let writer): return writer.sync()
        case .none: break
        }
        switch binary {
        case .some(let writer): return writer.sync()
        case .none: return 0
        }
    }

    /// The errno of the first failed write, 0 if none.
    public var writeError: Int32 {
        switch csv {
        case .some(let writer): return writer.writeError
        case .none: break
        }
        switch binary {
        case .some(let writer): return writer.writeError
        case .none: return 0
        }
    }

    public mutating func close() throws(TraceError) {
        if !isBinary { try csv!.close() } else { try binary!.close() }
    }
}

extension DecimalParsing {
    /// A cell's text as a Double (NaN when empty), or nil if it is not a number.
    static func value(of text: UnsafeRawBufferPointer) -> Double? {
        if text.isEmpty { return .nan }
        // Copy with a terminating comma so the parser sees a cell end.
        var bytes = Array(text)
        bytes.append(0x2C)
        return bytes.withUnsafeBufferPointer { buffer -> Double? in
            let start = buffer.baseAddress!
            let end = start + text.count
            var value = 0.0
            var cellEnd = end
            return parseDouble(start, end, &value, &cellEnd) == .number ? value : nil
        }
    }
}

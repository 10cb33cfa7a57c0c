/// A trace reader for either format, chosen by the file's first bytes: binary traces start
/// with `POISETRC`, anything else is read as text. An enum, not an existential, so `next()`
/// stays a direct call.
public enum TraceReader: ~Copyable {
    case csv(CSVTraceReader)
    case binary(BinaryTraceReader)

    /// Opens `path` (`-` = standard input) and reads its header.
    public init(path: String) throws(TraceError) {
        let fd = try openForReading(path)
        var input = ByteInput(fd: fd, ownsDescriptor: path != "-", capacity: CSVTraceReader.maximumLineLength)
        while input.available < 8 && input.refill() {}
        if input.available >= 8 && BinaryTraceFormat.hasMagic(UnsafeRawPointer(input.buffer + input.start)) {
            self = .binary(try BinaryTraceReader(path: path, input: input))
        } else {
            self = .csv(try CSVTraceReader(path: path, input: input))
        }
    }

    /// The next sample, or nil at the end of the trace.
    @inline(__always)
    public mutating func next() throws(TraceError) -> TraceSample? {
        switch consume self {
        case .csv(var reader):
            let result: Result<TraceSample?, TraceError>
            do { result = .success(try reader.next()) } catch { result = .failure(error) }
            self = .csv(reader)
            return try result.get()
        case .binary(var reader):
            let result: Result<TraceSample?, TraceError>
            do { result = .success(try reader.next()) } catch { result = .failure(error) }
            self = .binary(reader)
            return try result.get()
        }
    }

    public var isBinary: Bool {
        switch self {
        case .csv: false
        case .binary: true
        }
    }

    public var path: String {
        switch self {
        case .csv(let reader): reader.path
        case .binary(let reader): reader.path
        }
    }

    public var metadata: TraceMetadata {
        switch self {
        case .csv(let reader): reader.metadata
        case .binary(let reader): reader.metadata
        }
    }

    public var columns: [String] {
        switch self {
        case .csv(let reader): reader.columns
        case .binary(let reader): reader.columns
        }
    }

    public var layout: TraceColumns {
        switch self {
        case .csv(let reader): reader.layout
        case .binary(let reader): reader.layout
        }
    }

    /// Line (text) or record (binary) number of the sample last returned.
    public var line: Int {
        switch self {
        case .csv(let reader): reader.line
        case .binary(let reader): reader.record
        }
    }

    /// A column of the current row as a number; NaN when empty.
    public func doubleValue(ofColumn column: Int) throws(TraceError) -> Double {
        switch self {
        case .csv(let reader): try reader.doubleValue(ofColumn: column)
        case .binary(let reader): reader.doubleValue(ofColumn: column)
        }
    }

    /// The raw text of a cell of the current row (text traces only; empty for binary).
    public func cellText(_ column: Int) -> UnsafeRawBufferPointer {
        switch self {
        case .csv(let reader): reader.cellText(column)
        case .binary: UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }
}

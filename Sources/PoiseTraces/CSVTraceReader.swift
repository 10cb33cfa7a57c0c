import PoiseMath

/// Streams a text trace row by row in constant memory.
///
/// The file is read through one 64 KiB buffer; a row is parsed in place, without
/// allocation, into a `TraceSample`. Every problem is reported as
/// `FILE:LINE:COLUMN: message`. The reader owns its file descriptor, so it cannot be copied.
///
/// ```swift
/// var reader = try CSVTraceReader(path: "walk.csv")
/// while let sample = try reader.next() { … }
/// ```
public struct CSVTraceReader: ~Copyable {
    /// Longest line the reader accepts, in bytes.
    public static let maximumLineLength = 1 << 16

    /// The path as given (`-` for standard input).
    public let path: String
    /// The comment lines before the header.
    public var metadata: TraceMetadata
    /// The header's column names, in file order.
    public let columns: [String]
    /// Which column is what.
    public let layout: TraceColumns
    /// Line number of the row last returned by `next()` (the header's before the first row).
    public private(set) var line: Int

    var input: ByteInput
    let columnCount: Int
    /// Role per column (see `TraceColumns.roles`).
    let roles: UnsafeMutablePointer<UInt8>
    /// Start and end byte offsets of every cell of the current row, relative to `rowStart`.
    let cellBounds: UnsafeMutablePointer<Int>
    var rowStart: UnsafePointer<UInt8>?
    var previousTime = -Double.infinity

    /// Opens `path` (`-` = standard input) and reads the metadata and header.
    /// - Parameter sensorTrace: require the sensor columns (`t,ax…gz`); false reads derived
    ///   tables such as replay estimates (cells then come from `doubleValue(ofColumn:)`).
    public init(path: String, sensorTrace: Bool = true) throws(TraceError) {
        let fd = try openForReading(path)
        try self.init(path: path, input: ByteInput(fd: fd, ownsDescriptor: path != "-", capacity: Self.maximumLineLength),
                      sensorTrace: sensorTrace)
    }

    /// Reads the metadata and header from an opened input (possibly already sniffed).
    init(path: String, input: consuming ByteInput, sensorTrace: Bool = true) throws(TraceError) {
        if input.available < 8 { _ = input.refill() }
        if input.available >= 8 && BinaryTraceFormat.hasMagic(UnsafeRawPointer(input.buffer + input.start)) {
            throw TraceError(file: path, line: 1, column: 1, message: "not a text trace: this is a binary trace")
        }
        // Spreadsheets often start UTF-8 files with a byte order mark; it is not data.
        if input.available >= 3 && input.buffer[input.start] == 0xEF && input.buffer[input.start + 1] == 0xBB
            && input.buffer[input.start + 2] == 0xBF {
            input.start += 3
        }
        var lines: [String] = []
        var lineNumber = 0
        var header: [String]?
        while header == nil {
            lineNumber += 1
            switch input.nextLine() {
            case .endOfFile:
                if input.readError != 0 {
                    throw TraceError(file: path, line: 0, column: 0, message: "cannot read: \(systemErrorMessage(input.readError))")
                }
                throw TraceError(file: path, line: lineNumber, column: 1, message: "empty trace: no header")
            case .tooLong:
                throw Self.tooLongError(path, lineNumber, input)
            case .line(let p, var count):
                if count > 0 && p[count - 1] == 0x0D { count -= 1 }
                if let bad = TextChecks.firstInvalidByte(p, count) {
                    throw TraceError(file: path, line: lineNumber, column: TextChecks.characterColumn(p, byteOffset: bad),
                                     message: "not a text trace: NUL byte or invalid UTF-8")
                }
                let text = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
                if text.hasPrefix("#") {
                    lines.append(text)
                } else if !text.isEmpty {
                    header = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                }
            }
        }
        let names = header!
        do {
            layout = try sensorTrace ? TraceColumns(names: names) : TraceColumns(anyNames: names)
        } catch {
            var column = 1
            if let index = error.column {
                // Character column where that name starts.
                column += names[..<index].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            }
            throw TraceError(file: path, line: lineNumber, column: column, message: error.message)
        }
        self.path = path
        self.input = input
        metadata = TraceMetadata(uncheckedLines: lines)
        columns = names
        line = lineNumber
        columnCount = names.count
        roles = .allocate(capacity: names.count)
        for (index, role) in layout.roles.enumerated() { roles[index] = role }
        cellBounds = .allocate(capacity: 2 * names.count)
        cellBounds.initialize(repeating: 0, count: 2 * names.count)
    }

    deinit {
        roles.deallocate()
        cellBounds.deallocate()
    }

    /// The next sample, or nil at the end of the trace.
    @_noAllocation
    public mutating func next() throws(TraceError) -> TraceSample? {
        while true {
            let p: UnsafePointer<UInt8>
            var count: Int
            switch input.nextLine() {
            case .endOfFile:
                if input.readError != 0 { throw ioError() }
                rowStart = nil
                return nil
            case .tooLong:
                throw lineTooLongError()
            case .line(let start, let length):
                p = start
                count = length
            }
            line += 1
            if count > 0 && p[count - 1] == 0x0D { count -= 1 }
            if count == 0 { continue }  // blank line
            rowStart = p
            if input.lastLineUnterminated && isCutOff(p, count) { return nil }
            return try parseRow(p, p + count)
        }
    }

    @inline(__always)
    func recordBounds(_ column: Int, _ row: UnsafePointer<UInt8>, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        cellBounds[2 &* column] = start - row
        cellBounds[2 &* column &+ 1] = end - row
    }

    @inline(__always)
    mutating func parseRow(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws(TraceError) -> TraceSample {
        var row = RowValues()
        var q = p
        var column = 0
        while true {
            if column == columnCount { throw cellError(.tooManyFields, column, q) }
            let cellStart = q
            let role = roles[column]
            if role == 0 {
                let status = DecimalParsing.parseDouble(cellStart, end, &row.time, &q)
                if status != .number { recordBounds(column, p, cellStart, q); throw statusError(status, column, cellStart) }
                if !(row.time > previousTime) { recordBounds(column, p, cellStart, q); throw cellError(.timeNotIncreasing, column, cellStart) }
            } else if role != 255 {  // not TraceColumns.extraRole
                let status = DecimalParsing.parseFloat(cellStart, end, &row.values[Int(role)], &q)
                if status == .number {
                    row.present |= 1 &<< UInt16(role)
                } else if status != .empty || role <= 6 {
                    recordBounds(column, p, cellStart, q)
                    throw statusError(status, column, cellStart)
                }
            } else {
                // Unknown column: carried as text; it must still be text.
                var bits: UInt8 = 0
                var noNul = true
                while q < end && q.pointee != 0x2C { bits |= q.pointee; noNul = noNul && q.pointee != 0; q += 1 }
                if bits & 0x80 != 0 || !noNul { recordBounds(column, p, cellStart, q); try checkText(column, cellStart, q) }
            }
            recordBounds(column, p, cellStart, q)
            column &+= 1
            if q == end { break }
            q += 1
        }
        if column != columnCount { throw cellError(.tooFewFields(column), column, end) }
        var sample = TraceSample(time: 0, accelerometer: .zero, gyroscope: .zero)
        let missingRole = row.sample(&sample)
        if missingRole != 0 { throw partialGroupError(missingRole) }
        previousTime = row.time
        return sample
    }

    // MARK: Cells of the current row

    /// The raw text of a cell of the row last returned by `next()`, valid until the next call.
    public func cellText(_ column: Int) -> UnsafeRawBufferPointer {
        guard let rowStart, column >= 0, column < columnCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = cellBounds[2 * column], end = cellBounds[2 * column + 1]
        return UnsafeRawBufferPointer(start: rowStart + start, count: end - start)
    }

    /// A cell of the current row as a number (NaN when empty), e.g. an unknown column.
    public func doubleValue(ofColumn column: Int) throws(TraceError) -> Double {
        guard let rowStart, column >= 0, column < columnCount else { return .nan }
        let start = rowStart + cellBounds[2 * column], end = rowStart + cellBounds[2 * column + 1]
        var value = 0.0
        var cellEnd = end
        let status = DecimalParsing.parseDouble(start, end, &value, &cellEnd)
        if status == .number { return value }
        if status == .empty { return .nan }
        throw statusError(status, column, start)
    }

    /// 1-based character column where a cell of the current row starts.
    public func characterColumn(ofColumn column: Int) -> Int {
        guard let rowStart, column >= 0, column < columnCount else { return 1 }
        return TextChecks.characterColumn(rowStart, byteOffset: cellBounds[2 * column])
    }

    /// Whether the trace says it is a recording written live (`# source=poise-run…`).
    var isLiveRecording: Bool { metadata["source"]?.hasPrefix("poise-run") == true }

    /// A last line without a line break and with too few fields (or any, in a live recording)
    /// is a recording cut off by a kill or a power loss: like a binary trace's partial record, it is left out with one warning
    /// (`TraceWarnings`), or refused when strict.
    @inline(never) @_semantics("no_performance_analysis")
    mutating func isCutOff(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let fields = 1 + UnsafeBufferPointer(start: p, count: count).reduce(0) { $0 + ($1 == 0x2C ? 1 : 0) }
        // A live recording ends every row with a line break: a last line without one was cut
        // off even if it has every field (its last number may be short of digits).
        guard fields < columnCount || isLiveRecording, !TraceWarnings.strict else { return false }
        TraceWarnings.note("\(path):\(line):1: last line cut off (\(fields) of \(columnCount) fields, no line break); "
            + "read up to the last whole row")
        rowStart = nil
        return true
    }

    // MARK: Errors (cold)

    enum Problem {
        case empty, invalid, nonFinite, outOfRange
        case timeNotIncreasing
        case tooManyFields
        case tooFewFields(Int)
        case partialGroup(Int)
        case notText
    }

    /// Builds the located error for a problem in `column` starting at byte `at` (or at the
    /// cell's recorded start when nil).
    @inline(never) @_semantics("no_performance_analysis")
    func cellError(_ problem: Problem, _ column: Int, _ at: UnsafePointer<UInt8>?) -> TraceError {
        let rowStart = rowStart!
        let position = at ?? rowStart + cellBounds[2 * column]
        var characterColumn = TextChecks.characterColumn(rowStart, byteOffset: position - rowStart)
        let name = column < columnCount ? columns[column] : ""
        // Only problems inside a parsed cell have recorded bounds.
        var cellEnd = position
        switch problem {
        case .tooManyFields, .tooFewFields: break
        default: cellEnd = rowStart + cellBounds[2 * column + 1]
        }
        let cell = TextChecks.quoted(position, max(0, cellEnd - position))
        var message: String
        switch problem {
        case .empty: message = "missing value in required column '\(name)'"
        case .nonFinite: message = "non-finite value \(cell) in column '\(name)'"
        case .outOfRange: message = "value \(cell) out of range in column '\(name)'"
        case .invalid:
            if let bad = TextChecks.firstInvalidByte(position, cellEnd - position) {
                characterColumn += TextChecks.characterColumn(position, byteOffset: bad) - 1
                message = "not a text trace: NUL byte or invalid UTF-8"
            } else {
                message = "expected a number in column '\(name)', found \(cell)"
            }
        case .timeNotIncreasing:
            message = "time not increasing: \(cell) after \(previousTime)"
        case .tooManyFields: message = "too many fields: expected \(columnCount)"
        case .tooFewFields(let found): message = "too few fields: expected \(columnCount), found \(found)"
        case .partialGroup(let role): message = RowValues.partialGroupMessage(role: role)
        case .notText:
            let bad = TextChecks.firstInvalidByte(position, cellEnd - position) ?? 0
            characterColumn += TextChecks.characterColumn(position, byteOffset: bad) - 1
            message = "not a text trace: NUL byte or invalid UTF-8"
        }
        return TraceError(file: path, line: line, column: characterColumn, message: message)
    }

    @inline(never) @_semantics("no_performance_analysis")
    func statusError(_ status: CellStatus, _ column: Int, _ at: UnsafePointer<UInt8>) -> TraceError {
        let problem: Problem = status == .empty ? .empty : status == .nonFinite ? .nonFinite
            : status == .outOfRange ? .outOfRange : .invalid
        return cellError(problem, column, at)
    }

    @inline(never) @_semantics("no_performance_analysis")
    func partialGroupError(_ role: Int) -> TraceError {
        cellError(.partialGroup(role), layout.columnOfRole[role], nil)
    }

    @inline(never) @_semantics("no_performance_analysis")
    func checkText(_ column: Int, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws(TraceError) {
        if TextChecks.firstInvalidByte(start, end - start) != nil { throw cellError(.notText, column, start) }
    }

    @inline(never) @_semantics("no_performance_analysis")
    func lineTooLongError() -> TraceError { Self.tooLongError(path, line + 1, input) }

    @inline(never) @_semantics("no_performance_analysis")
    func ioError() -> TraceError {
        TraceError(file: path, line: 0, column: 0, message: "cannot read: \(systemErrorMessage(input.readError))")
    }

    @inline(never) @_semantics("no_performance_analysis")
    static func tooLongError(_ path: String, _ line: Int, _ input: borrowing ByteInput) -> TraceError {
        TraceError(file: path, line: line, column: 1,
                   message: "line longer than \(input.capacity) bytes (not a trace, or a broken line break)")
    }
}

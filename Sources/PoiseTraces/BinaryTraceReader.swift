import PoiseMath

/// Streams a binary trace (see `BinaryTraceFormat`) record by record in constant memory.
///
/// Records are decoded straight from a 64 KiB read buffer. Positions in errors: LINE is
/// the 1-based record number (0 = the header) and COLUMN the 1-based byte within that
/// record (within the file, for the header); messages about truncation also give the
/// absolute byte offset.
public struct BinaryTraceReader: ~Copyable {
    public let path: String
    public var metadata: TraceMetadata
    public let columns: [String]
    public let columnTypes: [BinaryTraceFormat.ColumnType]
    public let layout: TraceColumns
    /// Number of the record last returned by `next()`, from 1; 0 before the first.
    public private(set) var record = 0
    /// Same as `record`, named like the text reader's position.
    public var line: Int { record }

    var input: ByteInput
    let recordSize: Int
    let columnCount: Int
    /// Byte offset within a record and type of every column.
    let columnOffsets: UnsafeMutablePointer<Int>
    let columnIsDouble: UnsafeMutablePointer<Bool>
    /// Per role: byte offset within a record, or -1 when the column is absent.
    let roleOffsets: InlineArray<14, Int>
    /// Bit `role` set when that role's column is f64.
    let roleIsDouble: UInt16
    /// The usual layout — f64 time, each sensor group as consecutive f32 columns in x,y,z
    /// (w,x,y,z) order — is decoded with vector loads; anything else, and any record that
    /// needs an error, takes the general path.
    let vectorLayout: Bool
    var current: UnsafeRawPointer?
    var previousTime = -Double.infinity

    /// Opens `path` (`-` = standard input) and reads the header.
    public init(path: String) throws(TraceError) {
        let fd = try openForReading(path)
        try self.init(path: path, input: ByteInput(fd: fd, ownsDescriptor: path != "-", capacity: 1 << 16))
    }

    /// What the header says.
    struct Header {
        var names: [String]
        var types: [BinaryTraceFormat.ColumnType]
        var layout: TraceColumns
        var lines: [String]
        var recordSize: Int
    }

    static func readHeader(_ path: String, _ input: inout ByteInput) throws(TraceError) -> Header {
        func fail(_ offset: Int, _ message: String) -> TraceError {
            TraceError(file: path, line: 0, column: offset + 1, message: message)
        }
        guard let fixed = input.readBytes(BinaryTraceFormat.fixedHeaderSize) else {
            throw fail(0, "not a binary trace: shorter than its \(BinaryTraceFormat.fixedHeaderSize)-byte header")
        }
        guard Array(fixed[0..<8]) == BinaryTraceFormat.magic else { throw fail(0, "not a binary trace: no POISETRC magic") }
        func integer(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(fixed[offset + $1]) << (8 * $1) }
        }
        let version = integer(8, 2), flags = integer(10, 2), count = integer(12, 4)
        let metadataLength = integer(16, 4), recordSize = integer(20, 4), headerSize = integer(24, 4)
        if version != Int(BinaryTraceFormat.version) { throw fail(8, "unsupported binary trace version \(version) (this reader knows 1)") }
        if flags != 0 { throw fail(10, "unsupported binary trace flags 0x\(String(flags, radix: 16))") }
        if count < 1 || count > BinaryTraceFormat.maximumColumnCount { throw fail(12, "invalid column count \(count)") }
        if metadataLength > 1 << 26 { throw fail(16, "invalid metadata length \(metadataLength)") }

        var offset = BinaryTraceFormat.fixedHeaderSize
        var names: [String] = [], types: [BinaryTraceFormat.ColumnType] = [], descriptorOffsets: [Int] = []
        for _ in 0..<count {
            guard let descriptor = input.readBytes(2) else { throw fail(offset, "truncated header") }
            guard let type = BinaryTraceFormat.ColumnType(rawValue: descriptor[0]) else {
                throw fail(offset, "unknown column type \(descriptor[0])")
            }
            guard let nameBytes = input.readBytes(Int(descriptor[1])) else { throw fail(offset, "truncated header") }
            guard let name = String(validating: nameBytes, as: UTF8.self) else { throw fail(offset + 2, "column name is not UTF-8") }
            names.append(name); types.append(type); descriptorOffsets.append(offset)
            offset += 2 + nameBytes.count
        }
        let expectedRecordSize = types.reduce(0) { $0 + $1.size }
        if recordSize != expectedRecordSize { throw fail(20, "record size \(recordSize) does not match the columns (\(expectedRecordSize))") }
        let layout: TraceColumns
        do {
            layout = try TraceColumns(names: names)
        } catch {
            throw fail(error.column.map { descriptorOffsets[$0] } ?? offset, error.message)
        }
        guard let metadataBytes = input.readBytes(metadataLength) else { throw fail(offset, "truncated header") }
        guard let metadataText = String(validating: metadataBytes, as: UTF8.self) else { throw fail(offset, "metadata is not UTF-8") }
        var lines: [String] = []
        for line in metadataText.split(separator: "\n") {
            if !line.hasPrefix("#") { throw fail(offset, "metadata line does not start with '#'") }
            lines.append(String(line))
        }
        offset += metadataLength
        if headerSize < offset || headerSize > offset + 4096 { throw fail(24, "invalid header size \(headerSize)") }
        guard input.readBytes(headerSize - offset) != nil else { throw fail(offset, "truncated header") }

        return Header(names: names, types: types, layout: layout, lines: lines, recordSize: recordSize)
    }

    init(path: String, input: consuming ByteInput) throws(TraceError) {
        let header = try Self.readHeader(path, &input)
        let names = header.names, types = header.types, count = names.count
        layout = header.layout
        let lines = header.lines, recordSize = header.recordSize
        self.path = path
        self.input = input
        metadata = TraceMetadata(uncheckedLines: lines)
        columns = names
        columnTypes = types
        self.recordSize = recordSize
        columnCount = count
        columnOffsets = .allocate(capacity: count)
        columnIsDouble = .allocate(capacity: count)
        var roleOffsets = InlineArray<14, Int>(repeating: -1)
        var roleIsDouble: UInt16 = 0
        var fieldOffset = 0
        for index in 0..<count {
            columnOffsets[index] = fieldOffset
            columnIsDouble[index] = types[index] == .float64
            let role = layout.roles[index]
            if role != TraceColumns.extraRole {
                roleOffsets[Int(role)] = fieldOffset
                if types[index] == .float64 { roleIsDouble |= 1 << UInt16(role) }
            }
            fieldOffset += types[index].size
        }
        self.roleOffsets = roleOffsets
        self.roleIsDouble = roleIsDouble
        func consecutiveFloats(_ roles: ClosedRange<Int>) -> Bool {
            let first = roleOffsets[roles.lowerBound]
            if first < 0 { return roles.lowerBound >= 7 && roles.allSatisfy { roleOffsets[$0] < 0 } }
            return roles.allSatisfy {
                roleOffsets[$0] == first + 4 * ($0 - roles.lowerBound) && roleIsDouble & (1 << UInt16($0)) == 0
            }
        }
        vectorLayout = roleIsDouble & 1 != 0 && consecutiveFloats(1...3) && consecutiveFloats(4...6)
            && consecutiveFloats(7...9) && consecutiveFloats(10...13)
    }

    deinit {
        columnOffsets.deallocate()
        columnIsDouble.deallocate()
    }

    @inline(__always)
    static func load(_ p: UnsafeRawPointer, _ offset: Int, double: Bool) -> Double {
        if double { return Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) }
        return Double(Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
    }

    @inline(__always)
    static func loadFloat(_ p: UnsafeRawPointer, _ offset: Int, double: Bool) -> Float {
        if double { return Float(Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))) }
        return Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The next sample, or nil at the end of the trace.
    @_noAllocation
    public mutating func next() throws(TraceError) -> TraceSample? {
        if input.end - input.start < recordSize {
            while input.end - input.start < recordSize && input.refill() {}
            if input.end - input.start < recordSize {
                if input.readError != 0 { throw ioError() }
                if input.end == input.start { current = nil; return nil }
                try endAtCutOff()
                return nil
            }
        }
        let p = UnsafeRawPointer(input.buffer + input.start)
        input.start &+= recordSize
        record &+= 1
        current = p
        if vectorLayout, let sample = vectorSample(p) { return sample }
        var row = RowValues()
        row.time = Self.load(p, roleOffsets[0], double: roleIsDouble & 1 != 0)
        if !row.time.isFinite { throw recordError(0, row.time.isNaN ? .missing : .nonFinite) }
        if !(row.time > previousTime) { throw recordError(0, .timeNotIncreasing) }
        for role in 1..<14 {
            let offset = roleOffsets[role]
            if offset < 0 { continue }
            let value = Self.loadFloat(p, offset, double: roleIsDouble & (1 &<< UInt16(role)) != 0)
            if value.isFinite {
                row.values[role] = value
                row.present |= 1 &<< UInt16(role)
            } else if !value.isNaN || role <= 6 {
                throw recordError(role, value.isNaN ? .missing : .nonFinite)
            }
        }
        var sample = TraceSample(time: 0, accelerometer: .zero, gyroscope: .zero)
        let missingRole = row.sample(&sample)
        if missingRole != 0 { throw recordError(missingRole, .partialGroup) }
        previousTime = row.time
        return sample
    }

    @inline(__always)
    static func float(_ p: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// Decodes a record of the usual layout; nil when it needs the general path (to report
    /// an error or a partly empty group).
    @inline(__always)
    mutating func vectorSample(_ p: UnsafeRawPointer) -> TraceSample? {
        let time = Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: roleOffsets[0], as: UInt64.self)))
        let a = roleOffsets[1], g = roleOffsets[4], m = roleOffsets[7], q = roleOffsets[10]
        let accelerometer = SIMD3(Self.float(p, a), Self.float(p, a &+ 4), Self.float(p, a &+ 8))
        let gyroscope = SIMD3(Self.float(p, g), Self.float(p, g &+ 4), Self.float(p, g &+ 8))
        // x - x is 0 exactly for finite x and NaN for NaN or ±inf.
        var valid = time.isFinite && time > previousTime
            && all(accelerometer - accelerometer .== .zero) && all(gyroscope - gyroscope .== .zero)
        var magnetometer: SIMD3<Float>?
        if m >= 0 {
            let v = SIMD3(Self.float(p, m), Self.float(p, m &+ 4), Self.float(p, m &+ 8))
            if all(v - v .== .zero) { magnetometer = v } else if !all(v .!= v) { valid = false }
        }
        var truth: Quaternion?
        if q >= 0 {
            let v = SIMD4(Self.float(p, q), Self.float(p, q &+ 4), Self.float(p, q &+ 8), Self.float(p, q &+ 12))
            if all(v - v .== .zero) { truth = Quaternion(components: v) } else if !all(v .!= v) { valid = false }
        }
        if !valid { return nil }
        previousTime = time
        return TraceSample(time: time, accelerometer: accelerometer, gyroscope: gyroscope,
                           magnetometer: magnetometer, truth: truth)
    }

    /// A column of the record last returned by `next()` as a Double (NaN = missing).
    public func doubleValue(ofColumn column: Int) -> Double {
        guard let current, column >= 0, column < columnCount else { return .nan }
        return Self.load(current, columnOffsets[column], double: columnIsDouble[column])
    }

    /// 1-based byte within a record where a column starts.
    public func byteInRecord(ofColumn column: Int) -> Int {
        column >= 0 && column < columnCount ? columnOffsets[column] + 1 : 1
    }

    // MARK: Errors (cold)

    enum Problem { case missing, nonFinite, timeNotIncreasing, partialGroup }

    @inline(never) @_semantics("no_performance_analysis")
    func recordError(_ role: Int, _ problem: Problem) -> TraceError {
        let column = layout.columnOfRole[role]
        let name = columns[column]
        let message: String
        switch problem {
        case .partialGroup: message = RowValues.partialGroupMessage(role: role)
        case .timeNotIncreasing: message = "time not increasing: \(doubleValue(ofColumn: column)) after \(previousTime)"
        case .nonFinite: message = "non-finite value \(doubleValue(ofColumn: column)) in column '\(name)'"
        case .missing: message = "missing value in required column '\(name)'"
        }
        return TraceError(file: path, line: record, column: columnOffsets[column] + 1, message: message)
    }

    /// Cut off by a power loss or a killed recorder: the whole records are the recording.
    /// Reported once as a warning (`TraceWarnings`), or thrown when strict.
    @inline(never) @_semantics("no_performance_analysis")
    mutating func endAtCutOff() throws(TraceError) {
        if TraceWarnings.strict { throw truncatedError() }
        TraceWarnings.report(truncatedError(), ignoredBytes: input.end - input.start)
        input.start = input.end
        current = nil
    }

    @inline(never) @_semantics("no_performance_analysis")
    func truncatedError() -> TraceError {
        let have = input.end - input.start
        return TraceError(file: path, line: record + 1, column: 1,
                          message: "truncated record: \(have) of \(recordSize) bytes at byte offset \(input.fileOffset)")
    }

    @inline(never) @_semantics("no_performance_analysis")
    func ioError() -> TraceError {
        TraceError(file: path, line: 0, column: 0, message: "cannot read: \(systemErrorMessage(input.readError))")
    }
}

/// Layout of binary traces (`.ptrace`), for long recordings. All integers little-endian.
///
/// ```
/// offset size
///      0    8  magic "POISETRC"
///      8    2  version (1)
///     10    2  flags (0; readers reject unknown bits)
///     12    4  column count C (1...4096)
///     16    4  metadata length M in bytes
///     20    4  record size R in bytes (sum of the column sizes)
///     24    4  header size H: offset of the first record (multiple of 8)
///     28       C column descriptors: type (1 byte: 1 = f32, 2 = f64),
///              name length (1 byte), name (UTF-8)
///              M bytes of metadata: the text trace's comment lines, each ending in "\n"
///              zero padding up to H
///      H       records of R bytes: the columns in order, IEEE 754 little-endian
/// ```
/// Missing values (empty cells in a text trace) are NaN.
public enum BinaryTraceFormat {
    public static let magic: [UInt8] = Array("POISETRC".utf8)
    public static let version: UInt16 = 1
    /// Size of the fixed part of the header.
    public static let fixedHeaderSize = 28
    public static let maximumColumnCount = 4096

    /// Storage type of a column.
    public enum ColumnType: UInt8, Sendable {
        case float32 = 1
        case float64 = 2

        public var size: Int { self == .float32 ? 4 : 8 }
    }

    /// The type `BinaryTraceWriter` uses for a column: f64 for time and unknown columns
    /// (they may hold anything a text trace held), f32 for sensor and reference values.
    public static func defaultType(role: UInt8) -> ColumnType {
        role == 0 || role == TraceColumns.extraRole ? .float64 : .float32
    }

    /// Whether the 8 bytes at `p` are the magic.
    static func hasMagic(_ p: UnsafeRawPointer) -> Bool {
        for i in 0..<8 where p.load(fromByteOffset: i, as: UInt8.self) != magic[i] { return false }
        return true
    }

    /// The encoded header for the given columns and metadata.
    static func header(columns: [String], types: [ColumnType], metadata: TraceMetadata) -> [UInt8] {
        var metadataBytes: [UInt8] = []
        for line in metadata.lines { metadataBytes += Array(line.utf8); metadataBytes.append(0x0A) }
        var bytes = magic
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        append(version)
        append(UInt16(0))
        append(UInt32(columns.count))
        append(UInt32(metadataBytes.count))
        append(UInt32(types.reduce(0) { $0 + $1.size }))
        let sizeOffset = bytes.count
        append(UInt32(0))
        for (name, type) in zip(columns, types) {
            let utf8 = Array(name.utf8)
            bytes.append(type.rawValue)
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes += metadataBytes
        while bytes.count % 8 != 0 { bytes.append(0) }
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { size in
            for i in 0..<4 { bytes[sizeOffset + i] = size[i] }
        }
        return bytes
    }
}

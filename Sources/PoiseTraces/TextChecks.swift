/// Cold-path helpers for text traces: UTF-8 validation and character columns.
enum TextChecks {
    /// Offset of the first byte that is NUL or not valid UTF-8 in `[p, p + count)`, or nil.
    static func firstInvalidByte(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var i = 0
        while i < count {
            let b = p[i]
            if b == 0 { return i }
            if b < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            if i + length > count { return i }
            if p[i + 1] < low || p[i + 1] > high { return i }
            for k in 2..<max(2, length) where p[i + k] < 0x80 || p[i + k] > 0xBF { return i }
            i += length
        }
        return nil
    }

    /// 1-based character column of byte `offset` in a line starting at `p` (counts UTF-8
    /// lead bytes; continuation bytes do not start a character).
    static func characterColumn(_ p: UnsafePointer<UInt8>, byteOffset offset: Int) -> Int {
        var column = 1
        for i in 0..<offset where p[i] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// A cell's text for a message: at most 40 characters, quoted.
    static func quoted(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        let text = String(decoding: UnsafeBufferPointer(start: p, count: min(count, 40)), as: UTF8.self)
        return "'" + text + (count > 40 ? "…'" : "'")
    }
}

/// One problem found in a configuration file, with its position.
///
/// The description reads `FILE:LINE: key: message (allowed: …)`, the format compilers use, so
/// editors and terminals can jump to the offending line. Parts that do not apply are left out:
/// a syntax error has no key, an unreadable file has no line.
public struct ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file as the user named it (or the name given to `parse(text:file:)`).
    public var file: String
    /// 1-based line of the offending node, if the problem has a position.
    public var line: Int?
    /// 1-based column (Unicode scalars) of the offending node, if known.
    public var column: Int?
    /// Dotted key path such as `filter.madgwick.beta` or `outputs.pwm[1].source`.
    public var key: String?
    /// What is wrong, in plain words.
    public var message: String
    /// What would be accepted instead (a range with its unit, or a list of choices).
    public var allowed: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil,
                message: String, allowed: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        // Keys and messages quote the user's text; a garbled or non-YAML file must not turn
        // into a megabyte of error (the one place this is enforced).
        self.key = key.map { Self.clipped($0, to: 120) }
        self.message = Self.clipped(message, to: 400)
        // The allowed list comes from the schema: it gets what the line has left of its
        // 1 000 bytes, so a section's whole key list is shown (at least 300 bytes of it).
        let room = max(300, 900 - (self.key?.utf8.count ?? 0) - self.message.utf8.count - file.utf8.count)
        self.allowed = allowed.map { Self.clipped($0, to: room) }
    }

    /// `text` cut to at most `limit` bytes of UTF-8 on a character boundary, saying how much
    /// was left out. Bytes, not characters: a garbled file decodes to U+FFFD, three bytes each.
    static func clipped(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if bytes + size > limit { break }
            bytes += size
            end = text.index(after: index)
        }
        return text[..<end] + "… (\(text.utf8.count - bytes) more bytes)"
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key, !key.isEmpty { text += "\(key): " }
        text += message
        if let allowed, !allowed.isEmpty { text += " (allowed: \(allowed))" }
        return text
    }
}

/// Every problem found in one configuration file, in file order.
///
/// Loading never stops at the first problem: users fix a whole file in one pass.
public struct ConfigErrors: Error, CustomStringConvertible, Equatable, Sendable {
    /// The problems, sorted by line.
    public var errors: [ConfigError]

    public init(_ errors: [ConfigError]) {
        self.errors = errors
    }

    /// One error per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}

extension ConfigError {
    /// The first NUL byte or invalid UTF-8 sequence, with its line and column; nil for text.
    public static func notText(file: String, bytes: [UInt8]) -> ConfigError? {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            var valid = length > 0 && index + length <= bytes.count && byte != 0
            if valid && length > 1 {
                valid = bytes[(index + 1)..<(index + length)].allSatisfy { $0 >> 6 == 0b10 }
                    && String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            }
            if !valid {
                let what = byte == 0 ? "a NUL byte" : "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))"
                return ConfigError(file: file, line: line, column: column, message: "not a text file: \(what)")
            }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return nil
    }
}

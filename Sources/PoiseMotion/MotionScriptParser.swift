import PoiseMath
/// Tokeniser and recursive-descent parser for ``MotionScript``'s language.
struct MotionScriptParser {
    enum Kind: Equatable {
        case word(String)
        case openBrace
        case closeBrace
        case separator  // newline or ';'
        case end
    }

    struct Token {
        var kind: Kind
        var line: Int
        var column: Int

        var text: String {
            switch kind {
            case .word(let w): return "'\(w)'"
            case .openBrace: return "'{'"
            case .closeBrace: return "'}'"
            case .separator: return "end of statement"
            case .end: return "end of script"
            }
        }
    }

    let name: String
    private var tokens: [Token] = []
    private var index = 0
    private var segmentCount = 0
    private var totalDuration = 0.0
    /// The `lever` statement's offset, m (body frame), zero without one.
    private(set) var leverArm = SIMD3<Double>(0, 0, 0)
    private var leverToken: Token?

    static let maximumNesting = 16
    static let standardGravity = 9.80665

    init(source: String, name: String) {
        self.name = name
        tokens = Self.tokenize(source)
    }

    static func tokenize(_ source: String) -> [Token] {
        var tokens: [Token] = []
        var line = 1, column = 1
        var word = "", wordColumn = 0
        var inComment = false
        func flush() {
            if !word.isEmpty {
                tokens.append(Token(kind: .word(word), line: line, column: wordColumn))
                word = ""
            }
        }
        for scalar in source.unicodeScalars {
            if scalar == "\n" {
                flush()
                inComment = false
                tokens.append(Token(kind: .separator, line: line, column: column))
                line += 1
                column = 1
                continue
            }
            defer { column += 1 }
            if inComment { continue }
            switch scalar {
            case "#":
                flush()
                inComment = true
            case " ", "\t", "\r":
                flush()
            case ";":
                flush()
                tokens.append(Token(kind: .separator, line: line, column: column))
            case "{":
                flush()
                tokens.append(Token(kind: .openBrace, line: line, column: column))
            case "}":
                flush()
                tokens.append(Token(kind: .closeBrace, line: line, column: column))
            default:
                if word.isEmpty { wordColumn = column }
                word.unicodeScalars.append(scalar)
            }
        }
        flush()
        tokens.append(Token(kind: .end, line: line, column: column))
        return tokens
    }

    // MARK: - Helpers

    private var current: Token { tokens[index] }

    private func error(_ message: String, at token: Token) -> MotionScriptError {
        MotionScriptError(scriptName: name, line: token.line, column: token.column, message: message)
    }

    private mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    /// The current token as a lower-cased word, if it is one.
    private var currentWord: String? {
        if case .word(let w) = current.kind { return w.lowercased() }
        return nil
    }

    private mutating func expectKeyword(_ keyword: String, after what: String) throws(MotionScriptError) {
        guard currentWord == keyword else {
            throw error("expected '\(keyword)' after \(what), found \(current.text)", at: current)
        }
        _ = advance()
    }

    private mutating func number(_ what: String) throws(MotionScriptError) -> (value: Double, token: Token) {
        let token = current
        guard case .word(let w) = token.kind else {
            throw error("expected \(what), found \(token.text)", at: token)
        }
        guard let value = Double(w), value.isFinite else {
            if let split = Self.gluedUnit(w) {
                throw error("write a space between the number and its unit ('\(split.number) \(split.unit)')", at: token)
            }
            throw error("expected \(what) (a number), found '\(w)'", at: token)
        }
        _ = advance()
        return (value, token)
    }

    /// `"90deg"` → `("90", "deg")` when a number is glued to letters.
    static func gluedUnit(_ word: String) -> (number: Substring, unit: Substring)? {
        guard let first = word.firstIndex(where: { $0.isLetter && $0 != "e" && $0 != "E" }),
            first != word.startIndex, Double(word[..<first]) != nil
        else { return nil }
        return (word[..<first], word[first...])
    }

    /// A number followed by a unit from `units` (factor to SI); `defaultFactor` allows no unit.
    private mutating func quantity(
        _ what: String, units: [String: Double], unitNames: String, defaultFactor: Double? = nil
    ) throws(MotionScriptError) -> (value: Double, token: Token) {
        let (value, token) = try number(what)
        if let unit = currentWord, let factor = units[unit] {
            _ = advance()
            return (value * factor, token)
        }
        if let defaultFactor { return (value * defaultFactor, token) }
        throw error("expected \(unitNames) after '\(value.formattedForMessage)', found \(current.text)", at: current)
    }

    /// A unit word alone (after a vector), as its factor to SI.
    private mutating func unit(_ units: [String: Double], unitNames: String) throws(MotionScriptError) -> Double {
        guard let word = currentWord, let factor = units[word] else {
            throw error("expected \(unitNames), found \(current.text)", at: current)
        }
        _ = advance()
        return factor
    }

    private mutating func duration() throws(MotionScriptError) -> Double {
        let (seconds, token) = try quantity(
            "a duration", units: ["s": 1, "ms": 0.001, "min": 60], unitNames: "a duration unit (s, ms or min)",
            defaultFactor: 1)
        guard seconds > 0 else { throw error("duration must be positive", at: token) }
        guard seconds >= 1e-6 else { throw error("duration must be at least 1 µs", at: token) }
        guard seconds <= MotionScript.maximumDuration else {
            throw error("duration is longer than \(Int(MotionScript.maximumDuration)) s", at: token)
        }
        return seconds
    }

    private mutating func angle() throws(MotionScriptError) -> Double {
        let (radians, token) = try quantity(
            "an angle", units: ["deg": .pi / 180, "rad": 1], unitNames: "an angle unit (deg or rad)")
        return try limited(radians, 1e6, "angle", "rad", token)
    }

    /// Rejects magnitudes no real motion has (they would only produce meaningless samples).
    private func limited(_ value: Double, _ limit: Double, _ what: String, _ unit: String, _ token: Token)
        throws(MotionScriptError) -> Double
    {
        guard abs(value) <= limit else { throw error("\(what) is larger than \(Int(limit)) \(unit)", at: token) }
        return value
    }

    private mutating func frequency() throws(MotionScriptError) -> Double {
        let (hz, token) = try quantity("a frequency", units: ["hz": 1], unitNames: "a frequency unit (hz)")
        guard hz > 0 else { throw error("frequency must be positive", at: token) }
        return try limited(hz, 1e6, "frequency", "Hz", token)
    }

    private mutating func axis() throws(MotionScriptError) -> SIMD3<Double> {
        let token = current
        guard case .word(let raw) = token.kind else {
            throw error("expected an axis (x, y, z or a vector like 0.6,0.8,0), found \(token.text)", at: token)
        }
        let w = raw.lowercased()
        var v: SIMD3<Double>
        switch w {
        case "x", "+x": v = SIMD3(1, 0, 0)
        case "y", "+y": v = SIMD3(0, 1, 0)
        case "z", "+z": v = SIMD3(0, 0, 1)
        case "-x": v = SIMD3(-1, 0, 0)
        case "-y": v = SIMD3(0, -1, 0)
        case "-z": v = SIMD3(0, 0, -1)
        default:
            let parts = w.split(separator: ",", omittingEmptySubsequences: false)
            let values = parts.compactMap { Double($0) }
            if w.hasSuffix(","), case .word = tokens[index + 1].kind {
                throw error("write the axis vector without spaces, like 0.6,0.8,0", at: token)
            }
            guard parts.count == 3, values.count == 3, values.allSatisfy(\.isFinite) else {
                throw error("expected an axis (x, y, z or a vector like 0.6,0.8,0), found '\(raw)'", at: token)
            }
            v = SIMD3(values[0], values[1], values[2])
            let length = (v * v).sum().squareRoot()
            guard length > 1e-9, length.isFinite else { throw error("axis vector must not be zero", at: token) }
            v /= length
        }
        _ = advance()
        return v
    }

    /// A vector written without spaces, `0,0.1,-0.3`, not normalised.
    private mutating func vector(_ what: String) throws(MotionScriptError) -> (value: SIMD3<Double>, token: Token) {
        let token = current
        guard case .word(let raw) = token.kind else {
            throw error("expected \(what) (a vector like 0,0,0.3), found \(token.text)", at: token)
        }
        let values = raw.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
        guard values.count == 3, raw.split(separator: ",", omittingEmptySubsequences: false).count == 3,
              values.allSatisfy(\.isFinite) else {
            throw error("expected \(what) (a vector like 0,0,0.3, no spaces), found '\(raw)'", at: token)
        }
        _ = advance()
        return (SIMD3(values[0], values[1], values[2]), token)
    }

    private mutating func acceleration() throws(MotionScriptError) -> Double {
        let (raw, token) = try quantity(
            "an acceleration", units: ["m/s2": 1, "m/s^2": 1, "m/s²": 1, "g": Self.standardGravity],
            unitNames: "an acceleration unit (m/s2 or g)")
        return try limited(raw, 1e6, "acceleration", "m/s²", token)
    }

    private mutating func append(_ segment: MotionSegment, to list: inout [MotionSegment], at token: Token)
        throws(MotionScriptError)
    {
        segmentCount += 1
        totalDuration += segment.duration
        guard segmentCount <= MotionScript.maximumSegmentCount else {
            throw error("script expands to more than \(MotionScript.maximumSegmentCount) segments", at: token)
        }
        guard totalDuration <= MotionScript.maximumDuration else {
            throw error("script is longer than \(Int(MotionScript.maximumDuration)) s", at: token)
        }
        list.append(segment)
    }

    // MARK: - Grammar

    mutating func parseScript() throws(MotionScriptError) -> [MotionSegment] {
        let segments = try statements(depth: 0)
        if case .closeBrace = current.kind { throw error("'}' without a matching 'repeat {'", at: current) }
        return segments
    }

    /// Statements until `}` or the end of the script (neither consumed).
    private mutating func statements(depth: Int) throws(MotionScriptError) -> [MotionSegment] {
        var list: [MotionSegment] = []
        while true {
            while current.kind == .separator { _ = advance() }
            switch current.kind {
            case .end, .closeBrace: return list
            default: break
            }
            try statement(into: &list, depth: depth)
            switch current.kind {
            case .separator, .end, .closeBrace: continue
            default:
                throw error("unexpected \(current.text) after the statement; put one statement per line or separate with ';'", at: current)
            }
        }
    }

    private mutating func statement(into list: inout [MotionSegment], depth: Int) throws(MotionScriptError) {
        let start = current
        guard let keyword = currentWord else {
            throw error("expected a statement (rest, rotate, spin, wobble, shake, move, strokes, lever or repeat), found \(start.text)", at: start)
        }
        _ = advance()
        switch keyword {
        case "rest":
            try append(.rest(duration: duration()), to: &list, at: start)
        case "rotate":
            let axis = try axis()
            let angle = try angle()
            try expectKeyword("over", after: "the angle")
            try append(.rotate(axis: axis, angle: angle, duration: duration()), to: &list, at: start)
        case "spin":
            let axis = try axis()
            let (rawRate, rateToken) = try quantity(
                "a rate", units: ["deg/s": .pi / 180, "rad/s": 1, "rpm": 2 * .pi / 60],
                unitNames: "a rate unit (deg/s, rad/s or rpm)")
            let rate = try limited(rawRate, 1e5, "rate", "rad/s", rateToken)
            try expectKeyword("for", after: "the rate")
            try append(.spin(axis: axis, rate: rate, duration: duration()), to: &list, at: start)
        case "wobble":
            let seconds = try duration()
            try expectKeyword("amplitude", after: "the duration")
            let amplitude = try angle()
            try expectKeyword("frequency", after: "the amplitude")
            let hz = try frequency()
            var axis = SIMD3<Double>(1, 0, 0)
            if currentWord == "about" {
                _ = advance()
                axis = try self.axis()
            }
            try append(.wobble(axis: axis, amplitude: amplitude, frequency: hz, duration: seconds), to: &list, at: start)
        case "shake":
            let seconds = try duration()
            try expectKeyword("amplitude", after: "the duration")
            let (rawAmplitude, amplitudeToken) = try quantity(
                "an acceleration", units: ["m/s2": 1, "m/s^2": 1, "m/s²": 1, "g": Self.standardGravity],
                unitNames: "an acceleration unit (m/s2 or g)")
            let amplitude = try limited(rawAmplitude, 1e6, "acceleration", "m/s²", amplitudeToken)
            try expectKeyword("frequency", after: "the amplitude")
            let hz = try frequency()
            var direction = SIMD3<Double>(1, 0, 0)
            if currentWord == "along" {
                _ = advance()
                direction = try axis()
            }
            try append(.shake(direction: direction, amplitude: amplitude, frequency: hz, duration: seconds), to: &list, at: start)
        case "move":
            let direction = try axis()
            let (rawDistance, distanceToken) = try quantity(
                "a distance", units: ["m": 1, "cm": 0.01, "mm": 0.001], unitNames: "a distance unit (m, cm or mm)")
            let distance = try limited(rawDistance, 1e6, "distance", "m", distanceToken)
            try expectKeyword("over", after: "the distance")
            try append(.move(direction: direction, distance: distance, duration: duration()), to: &list, at: start)
        case "strokes":
            let seconds = try duration()
            try expectKeyword("frequency", after: "the duration")
            let hz = try frequency()
            try expectKeyword("stop", after: "the frequency")
            let stop = try acceleration()
            try expectKeyword("over", after: "the stop acceleration")
            let stopToken = current
            let stopSeconds = try duration()
            guard stopSeconds < 0.5 / hz else {
                throw error("a stroke's stop must be shorter than half its period (\((500 / hz).formattedForMessage) ms)", at: stopToken)
            }
            var direction = SIMD3<Double>(1, 0, 0)
            if currentWord == "along" {
                _ = advance()
                direction = try axis()
            }
            try append(.strokes(direction: direction, frequency: hz, stopAcceleration: stop,
                                stopDuration: stopSeconds, duration: seconds), to: &list, at: start)
        case "lever":
            if let leverToken {
                throw error("only one 'lever' per script (the first is at \(leverToken.line):\(leverToken.column)): the sensor is fixed to the body", at: start)
            }
            let (offset, offsetToken) = try vector("a lever arm")
            let factor = try unit(["m": 1, "cm": 0.01, "mm": 0.001], unitNames: "a distance unit (m, cm or mm)")
            let arm = offset * factor
            guard (arm * arm).sum() <= 1e12 else { throw error("lever arm is longer than 1000000 m", at: offsetToken) }
            leverArm = arm
            leverToken = start
        case "repeat":
            let (count, countToken) = try number("a repeat count")
            guard count >= 1, count <= Double(MotionScript.maximumSegmentCount), count == count.rounded() else {
                throw error("repeat count must be a whole number from 1 to \(MotionScript.maximumSegmentCount)", at: countToken)
            }
            guard depth < Self.maximumNesting else {
                throw error("'repeat' nested deeper than \(Self.maximumNesting) levels", at: start)
            }
            guard current.kind == .openBrace else {
                throw error("expected '{' after the repeat count, found \(current.text)", at: current)
            }
            _ = advance()
            let body = try statements(depth: depth + 1)
            guard current.kind == .closeBrace else {
                throw error("missing '}' to close the 'repeat' at \(start.line):\(start.column)", at: current)
            }
            _ = advance()
            guard !body.isEmpty else { return }
            // The body was counted once while parsing it; the loop below counts every copy.
            segmentCount -= body.count
            for segment in body { totalDuration -= segment.duration }
            for _ in 0..<Int(count) {
                for segment in body { try append(segment, to: &list, at: start) }
            }
        default:
            throw error("unknown statement '\(keyword)'; expected rest, rotate, spin, wobble, shake, move, strokes, lever or repeat", at: start)
        }
    }
}

extension Double {
    /// Short form for messages: `90` rather than `90.0`.
    var formattedForMessage: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

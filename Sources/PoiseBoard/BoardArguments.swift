/// One command's arguments after its name, read the way `poise`'s commands read theirs:
/// `--name value`, `--name=value`, flags, positionals, `-h`/`--help` anywhere. Written for the
/// board, where swift-argument-parser (reflection, existentials) cannot go.
struct BoardArguments {
    /// An option that takes a value, under its names (`-o`, `--output`).
    struct Valued {
        var names: [String]
        var key: String
    }

    private(set) var values: [String: String] = [:]
    private(set) var flags: [String] = []
    private(set) var positionals: [String] = []
    private(set) var help = false

    init(_ arguments: ArraySlice<String>, valued: [Valued], flags known: [String]) throws(BoardCommand.UsageError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                help = true
                return
            }
            if known.contains(argument) {
                if !flags.contains(argument) { flags.append(argument) }
                continue
            }
            if let option = valued.first(where: { $0.names.contains(argument) }) {
                guard index < arguments.endIndex else { throw .init(message: "missing value for '" + argument + "'") }
                values[option.key] = arguments[index]
                index += 1
                continue
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                let name = String(argument[..<equals])
                if let option = valued.first(where: { $0.names.contains(name) }) {
                    values[option.key] = String(argument[argument.index(after: equals)...])
                    continue
                }
            }
            if argument.hasPrefix("-") && argument != "-" {
                throw .init(message: "unknown option '" + argument + "'")
            }
            positionals.append(argument)
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A value that must not be empty when given (`empty NAME name`).
    func name(_ key: String, what: String) throws(BoardCommand.UsageError) -> String? {
        guard let value = values[key] else { return nil }
        if value.isEmpty { throw .init(message: "empty " + what + " name") }
        return value
    }

    /// A number given to `option`: finite and at least `minimum`.
    func number(_ key: String, option: String, minimum: Int) throws(BoardCommand.UsageError) -> Double? {
        guard let text = values[key] else { return nil }
        guard let value = Double(text), value.isFinite, value >= Double(minimum) else {
            throw .init(message: option + " needs a number ≥ " + String(minimum) + ", not '" + text + "'")
        }
        return value
    }

    /// No more positionals than `count`.
    func atMost(_ count: Int) throws(BoardCommand.UsageError) {
        if positionals.count > count { throw .init(message: "unexpected argument '" + positionals[count] + "'") }
    }
}

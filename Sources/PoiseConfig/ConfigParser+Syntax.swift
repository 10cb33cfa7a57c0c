import Yams

extension ConfigParser {
    /// Turns a Yams parse failure into a positioned error. libyaml stops at the first syntax
    /// error, so this is the one case where a file yields a single error.
    func syntaxError(_ error: any Error, text: String) -> ConfigError {
        guard let yamlError = error as? YamlError else {
            return ConfigError(file: file, message: "cannot parse YAML: \(error)")
        }
        switch yamlError {
        case let .scanner(context, problem, mark, _),
             let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var message = "YAML syntax error: \(problem)"
            if let context {
                message += " (\(context.text) on line \(context.mark.line))"
            }
            return ConfigError(file: file, line: mark.line, column: mark.column, message: message)
        case let .reader(problem, offset, _, _):
            let line = offset.map { offset in
                1 + text.utf8.prefix(max(0, offset)).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            return ConfigError(file: file, line: line, message: "cannot read text: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let names = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return ConfigError(file: file, line: context.mark.line, column: context.mark.column,
                               key: duplicates.first,
                               message: "key \(names) appears more than once in the same mapping")
        default:
            return ConfigError(file: file, message: "cannot parse YAML: \(yamlError)")
        }
    }
}

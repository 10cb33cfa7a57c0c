import ArgumentParser

/// The names of `poise`'s subcommands, for `poise help NAME` and the suggestion after a
/// mistyped one.
enum CommandNames {
    /// Every subcommand the help lists, with its type.
    static var all: [(name: String, command: ParsableCommand.Type)] {
        Poise.configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { command in
            command.configuration.commandName.map { ($0, command) }
        }
    }

    /// The subcommand called `name`, if any.
    static func command(named name: String) -> ParsableCommand.Type? {
        all.first { $0.name == name }?.command
    }

    /// "unknown command 'syth'; did you mean 'synth'?" — every command equally near ('tun':
    /// 'run' or 'tune') — or the list of commands when no name is close (at most two letters
    /// added, dropped or changed).
    static func unknown(_ word: String) -> String {
        let names = all.map(\.name)
        let close = names.map { (name: $0, distance: editDistance(word.lowercased(), $0)) }
            .filter { $0.distance <= min(2, $0.name.count / 2) }
        if let best = close.map(\.distance).min() {
            let nearest = close.filter { $0.distance == best }.map { "'\($0.name)'" }
            return "unknown command '\(word)'; did you mean \(nearest.joined(separator: " or "))?"
        }
        return "unknown command '\(word)' (commands: \(names.joined(separator: ", ")))"
    }

    /// Levenshtein distance: letters added, dropped or changed to turn `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

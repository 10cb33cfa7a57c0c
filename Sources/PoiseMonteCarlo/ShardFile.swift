import PoiseSimulation

/// What one shard of a sweep writes and the merge reads back: each trial's measured figures,
/// written so that they read back to the same bits, under a header that names the sweep. The
/// drawn values are not written: the merge draws each trial's world again from the base seed,
/// as `--trial K` does, and builds the report with the same code as a one-machine run, so the
/// merged report is that run's byte for byte.
///
///     poise-monte-carlo-shard 1
///     sweep 200 trials, shard 3/8, fingerprint 5f0c2e9a81d4b377
///     trial	success	marginal	armed_at	failsafe_at	failsafe_reason	diverged_at	divergence	non_finite	settling_s	worst_tilt_deg	pitch_rms_deg	lean_error_deg	saturation
///     3	1	0	0.5	-	-	-	-	-	1.234	0.8123	0.0412	-	0.012
///     …
///     end 25
///
/// Fields are tab-separated; `-` is "not measured" (nil); text escapes `%`, tab, newline and
/// `,` as `%XX`; `non_finite` is a comma-separated list. A shard cut short has no `end` line
/// and is refused by the merge.
public enum ShardFile {
    static let magic = "poise-monte-carlo-shard 1"
    static let columns = ["trial", "success", "marginal", "armed_at", "failsafe_at", "failsafe_reason", "diverged_at",
                          "divergence", "non_finite", "settling_s", "worst_tilt_deg", "pitch_rms_deg", "lean_error_deg", "saturation"]

    /// What names a sweep: the same configuration text, spread text, base seed, duration and
    /// trial count give the same fingerprint (FNV-1a, 64 bits, of all five).
    public static func fingerprint(configuration: String, spread: String, baseSeed: Int, duration: Double, trials: Int) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in [configuration, spread, String(baseSeed), "\(duration)", String(trials)] {
            for byte in part.utf8 + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A finished shard's file.
    public static func text(_ outcomes: [TrialOutcome], shard: Shard, trials: Int, fingerprint: String) -> String {
        var lines = [magic, "sweep \(trials) trials, shard \(shard.text), fingerprint \(fingerprint)", columns.joined(separator: "\t")]
        for outcome in outcomes.sorted(by: { $0.trial < $1.trial }) {
            let fields: [String] = [
                String(outcome.trial), outcome.success ? "1" : "0", outcome.marginal ? "1" : "0",
                number(outcome.armedAt), number(outcome.failsafeAt), text(outcome.failsafeReason),
                number(outcome.divergence?.time), text(outcome.divergence?.cause),
                outcome.nonFinite.isEmpty ? "-" : outcome.nonFinite.map(escaped).joined(separator: ","),
                number(outcome.settlingTime), number(outcome.worstTilt), number(outcome.pitchRMS),
                number(outcome.leanError), number(outcome.saturation),
            ]
            lines.append(fields.joined(separator: "\t"))
        }
        lines.append("end \(outcomes.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The whole sweep from its shards' files (name, text): every shard of one sweep, each once
    /// and finished, else an error naming the file and line. Each trial's world is drawn again
    /// from the plan to give its seed and drawn values.
    public static func merge(_ files: [(name: String, text: String)], plan: MonteCarloPlan, fingerprint: String)
        throws(MonteCarloError) -> MonteCarloRun
    {
        guard let rule = SuccessRule.forConfiguration(plan.configuration) else {
            throw MonteCarloError("--merge needs the sweep's controlled plant: give the shards' --config")
        }
        let total = plan.trials.count
        var byShard: [Int: String] = [:]
        var outcomes: [TrialOutcome] = []
        var count: Int?
        for file in files {
            let read = try read(file.name, file.text, fingerprint: fingerprint, trials: total)
            if let count, count != read.shard.count {
                throw MonteCarloError("\(file.name):2: shard \(read.shard.text) is of a sweep in \(read.shard.count) shards; the others are in \(count)")
            }
            count = read.shard.count
            if let other = byShard[read.shard.index] {
                throw MonteCarloError("\(file.name):2: shard \(read.shard.text) is given twice (also \(other))")
            }
            byShard[read.shard.index] = file.name
            for figures in read.trials {
                let world: TrialWorld
                do { world = try TrialWorld(trial: figures.trial, baseSeed: plan.baseSeed, spread: plan.spread, base: plan.configuration) } catch {
                    throw MonteCarloError(error.description)
                }
                outcomes.append(TrialOutcome(world: world, figures: figures))
            }
        }
        if let count, byShard.count < count {
            let missing = (0..<count).filter { byShard[$0] == nil }.map { "\($0)/\(count)" }
            throw MonteCarloError("--merge: shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) missing: give every shard's file")
        }
        outcomes.sort { $0.trial < $1.trial }
        return MonteCarloRun(outcomes: outcomes, rule: rule, simulatedSeconds: Double(outcomes.count) * plan.duration,
                             wallSeconds: 0, signal: 0)
    }

    /// One trial's figures as a shard wrote them.
    struct Figures {
        var trial: Int
        var success: Bool, marginal: Bool
        var armedAt: Double?, failsafeAt: Double?, failsafeReason: String?
        var divergence: (time: Double, cause: String)?
        var nonFinite: [String]
        var settlingTime: Double?, worstTilt: Double?, pitchRMS: Double?, leanError: Double?, saturation: Double?
    }

    static func read(_ name: String, _ text: String, fingerprint: String, trials total: Int)
        throws(MonteCarloError) -> (shard: Shard, trials: [Figures])
    {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }  // the last line's own newline
        func error(_ line: Int, _ message: String) -> MonteCarloError { MonteCarloError("\(name):\(line): \(message)") }
        guard lines.first == magic else {
            throw error(1, "not a shard of `poise simulate --shard` (it begins '\(magic)')")
        }
        let header = lines.count > 1 ? lines[1] : ""
        let words = header.split(separator: " ").map(String.init)
        guard words.count == 7, words[0] == "sweep", words[2] == "trials,", words[3] == "shard", words[4].hasSuffix(","), words[5] == "fingerprint",
              let sweepTrials = Int(words[1]) else {
            throw error(2, "not a sweep header ('sweep N trials, shard I/K, fingerprint F')")
        }
        let shard: Shard
        do { shard = try Shard(parsing: String(words[4].dropLast())) } catch { throw MonteCarloError("\(name):2: \(error.description)") }
        guard words[6] == fingerprint, sweepTrials == total else {
            throw error(2, "a shard of another sweep (\(sweepTrials) trials, fingerprint \(words[6])); this merge is of "
                + "\(total) trials, fingerprint \(fingerprint): give the shards' own --config, --spread, --seed, --duration and --trials")
        }
        guard lines.count > 2, lines[2] == columns.joined(separator: "\t") else { throw error(3, "not the shard's column line") }
        var figures: [Figures] = []
        let expected = shard.trials(of: total)
        var index = 3
        while index < lines.count, !lines[index].hasPrefix("end ") {
            let line = index + 1
            let fields = lines[index].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == columns.count else { throw error(line, "\(fields.count) fields, not \(columns.count)") }
            guard let trial = Int(fields[0]), figures.count < expected.count, trial == expected[figures.count] else {
                throw error(line, "trial '\(fields[0])' where shard \(shard.text) of \(total) has trial "
                    + (figures.count < expected.count ? String(expected[figures.count]) : "no more"))
            }
            func flag(_ i: Int) throws(MonteCarloError) -> Bool {
                switch fields[i] {
                case "1": return true
                case "0": return false
                default: throw error(line, "\(columns[i]): 0 or 1, not '\(fields[i])'")
                }
            }
            func number(_ i: Int) throws(MonteCarloError) -> Double? {
                if fields[i] == "-" { return nil }
                guard let x = Double(fields[i]), x.isFinite else { throw error(line, "\(columns[i]): a number or '-', not '\(fields[i])'") }
                return x
            }
            func text(_ i: Int) throws(MonteCarloError) -> String? {
                if fields[i] == "-" { return nil }
                guard let s = unescaped(fields[i]) else { throw error(line, "\(columns[i]): a bad %-escape in '\(fields[i])'") }
                return s
            }
            let divergedAt = try number(6), cause = try text(7)
            guard (divergedAt == nil) == (cause == nil) else { throw error(line, "diverged_at and divergence: both or neither") }
            var nonFinite: [String] = []
            if fields[8] != "-" {
                for part in fields[8].split(separator: ",", omittingEmptySubsequences: false) {
                    guard let s = unescaped(String(part)) else { throw error(line, "non_finite: a bad %-escape") }
                    nonFinite.append(s)
                }
            }
            figures.append(Figures(trial: trial, success: try flag(1), marginal: try flag(2), armedAt: try number(3),
                                   failsafeAt: try number(4), failsafeReason: try text(5),
                                   divergence: divergedAt.map { ($0, cause!) }, nonFinite: nonFinite,
                                   settlingTime: try number(9), worstTilt: try number(10), pitchRMS: try number(11),
                                   leanError: try number(12), saturation: try number(13)))
            index += 1
        }
        guard index < lines.count, lines[index] == "end \(figures.count)", figures.count == expected.count else {
            throw error(min(index + 1, lines.count), "shard \(shard.text) is cut short: \(figures.count) of its \(expected.count) trials "
                + "and no 'end \(expected.count)' line; run it again")
        }
        guard index + 1 == lines.count else { throw error(index + 2, "text after the 'end' line") }
        return (shard, figures)
    }

    static func number(_ x: Double?) -> String { x.map { "\($0)" } ?? "-" }

    static func text(_ s: String?) -> String { s.map(escaped) ?? "-" }

    /// `%`, tab, newline, carriage return and `,` as `%XX`; and a lone `-` as `%2D`, so that
    /// it does not read as "not measured".
    static func escaped(_ s: String) -> String {
        if s == "-" { return "%2D" }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "%", "\t", "\n", "\r", ",":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescaped(_ s: String) -> String? {
        var out = String.UnicodeScalarView()
        var scalars = s.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else { out.append(scalar); continue }
            guard let high = scalars.next(), let low = scalars.next(),
                  let value = UInt8(String(high) + String(low), radix: 16) else { return nil }
            out.append(Unicode.Scalar(value))
        }
        return String(out)
    }
}

extension TrialOutcome {
    /// A trial read back from a shard: its world drawn again, its figures as measured.
    init(world: TrialWorld, figures: ShardFile.Figures) {
        trial = world.trial
        seed = world.seed
        drawn = world.drawn
        success = figures.success
        marginal = figures.marginal
        armedAt = figures.armedAt
        failsafeAt = figures.failsafeAt
        failsafeReason = figures.failsafeReason
        divergence = figures.divergence.map { PlantDivergence(time: $0.time, cause: $0.cause) }
        nonFinite = figures.nonFinite
        settlingTime = figures.settlingTime
        worstTilt = figures.worstTilt
        pitchRMS = figures.pitchRMS
        leanError = figures.leanError
        saturation = figures.saturation
    }
}

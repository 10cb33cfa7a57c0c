import PoiseJSON

/// A named trial result, for tables and reports.
public struct NamedResult: Sendable, Equatable {
    public var name: String
    public var result: TrialResult

    public init(name: String, result: TrialResult) {
        self.name = name
        self.result = result
    }
}

/// The plain mean of per-trial RMSEs, as BROAD averages over trials.
public func meanResult(_ results: [TrialResult]) -> TrialResult {
    guard !results.isEmpty else {
        return TrialResult(total: .nan, heading: .nan, inclination: .nan, scoredRows: 0)
    }
    let n = Double(results.count)
    return TrialResult(total: results.map(\.total).reduce(0, +) / n,
                       heading: results.map(\.heading).reduce(0, +) / n,
                       inclination: results.map(\.inclination).reduce(0, +) / n,
                       scoredRows: results.map(\.scoredRows).reduce(0, +))
}

/// A fixed-width text table of results with a mean row, degrees to two decimals:
///
/// ```
/// trial                            total  heading  inclination   rows
/// 01_undisturbed_slow_rotation_A    1.83     1.52         0.71  35000
/// mean                              1.83     1.52         0.71  35000
/// ```
public func formatResultTable(_ results: [NamedResult]) -> String {
    let nameWidth = max(5, results.map(\.name.count).max() ?? 0)
    func pad(_ s: String, _ width: Int, right: Bool = true) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }
    func line(_ name: String, _ r: TrialResult) -> String {
        pad(name, nameWidth, right: false) + "  " + pad(fixed(r.total), 6) + "  "
            + pad(fixed(r.heading), 7) + "  " + pad(fixed(r.inclination), 11) + "  "
            + pad(String(r.scoredRows), 6)
    }
    var lines = [pad("trial", nameWidth, right: false) + "  " + pad("total", 6) + "  "
                 + pad("heading", 7) + "  " + pad("inclination", 11) + "  " + pad("rows", 6)]
    for r in results { lines.append(line(r.name, r.result)) }
    if results.count > 1 { lines.append(line("mean", meanResult(results.map(\.result)))) }
    return lines.joined(separator: "\n") + "\n"
}

/// Results as a JSON document: `{"trials":[{"name":…,"total":…,…}],"mean":{…}}`.
/// Non-finite numbers are written as `null`.
public func encodeResultsJSON(_ results: [NamedResult]) -> String {
    func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }
    func object(_ r: TrialResult, name: String?) -> String {
        var fields: [String] = []
        if let name { fields.append("\"name\":\(JSONString.quoted(name))") }
        fields.append("\"total\":\(number(r.total))")
        fields.append("\"heading\":\(number(r.heading))")
        fields.append("\"inclination\":\(number(r.inclination))")
        fields.append("\"scoredRows\":\(r.scoredRows)")
        fields.append("\"headingOffset\":\(number(r.headingOffset))")
        return "{" + fields.joined(separator: ",") + "}"
    }
    let trials = results.map { object($0.result, name: $0.name) }.joined(separator: ",")
    let mean = object(meanResult(results.map(\.result)), name: nil)
    return "{\"unit\":\"deg\",\"trials\":[\(trials)],\"mean\":\(mean)}"
}

/// `x` with two decimals (no Foundation `String(format:)`); "nan" when not finite.
func fixed(_ x: Double) -> String {
    guard x.isFinite else { return "nan" }
    let hundredths = (abs(x) * 100).rounded()
    let whole = Int(hundredths / 100)
    let fraction = Int(hundredths) % 100
    let sign = x < 0 && hundredths > 0 ? "-" : ""
    return sign + String(whole) + "." + (fraction < 10 ? "0" : "") + String(fraction)
}

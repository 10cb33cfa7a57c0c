import PoiseTraces

/// A motor channel's `out_` column and the ranges that turn its pulse width into a command.
struct MotorColumn {
    var index: Int
    var pulseMin: Double
    var pulseMax: Double
    var inputMin: Double
    var inputMax: Double

    /// The command (0…1) for a pulse width, µs.
    func command(_ pulse: Double) -> Double {
        let span = pulseMax - pulseMin
        let fraction = span != 0 ? (pulse - pulseMin) / span : 0
        return max(0, min(1, inputMin + fraction * (inputMax - inputMin)))
    }
}

/// `poise spectrum`'s first pass over a recording: its columns, metadata, how many samples it
/// holds and over what time (the segment length and the rate come from them). Rows of ticks
/// without a new sample (`sample` 0) are left out, as every command that wants measurements
/// does. Nothing but these numbers is kept, except for standard input, which cannot be read
/// twice.
struct SpectrumSurvey {
    let path: String
    let names: [String]
    let metadata: TraceMetadata
    let timeColumn: Int
    private(set) var count = 0
    private(set) var firstTime = Double.nan
    private(set) var lastTime = Double.nan
    /// Every cell of every row, for standard input only.
    private var kept: [[Double]]? = nil

    /// - Parameter progress: called every 65 536 rows with the count so far.
    init(path: String, keepRows: Bool, progress: (Int) -> Void) throws(TraceError) {
        var reader = try TraceReader(path: path, sensorTrace: false)
        self.path = path
        names = reader.columns
        metadata = reader.metadata
        guard let t = names.firstIndex(of: "t") else {
            throw TraceError(file: path, line: reader.line, column: 1, message: "no time column 't' (columns: \(names.joined(separator: ",")))")
        }
        timeColumn = t
        if keepRows { kept = [] }
        while try reader.next() != nil {
            let time = try reader.doubleValue(ofColumn: t)
            if count == 0 { firstTime = time }
            lastTime = time
            if kept != nil {
                var row = [Double](repeating: .nan, count: names.count)
                for i in names.indices { row[i] = try reader.doubleValue(ofColumn: i) }
                kept!.append(row)
            }
            count += 1
            if count & 0xFFFF == 0 { progress(count) }
        }
    }

    /// The mean sample rate: samples per second between the first and the last (a chip
    /// clocked apart from the loop gives steps of 2 and 3 ms at 400 Hz; the mean is the rate).
    var sampleRate: Double {
        guard count >= 2, lastTime > firstTime else { return .nan }
        return Double(count - 1) / (lastTime - firstTime)
    }

    /// The second pass: each row's values of `columns` (in that order) and, when `motors` is
    /// not empty, the mean command of those motors, handed to `body` as they are read.
    func rows(columns: [String], motors: [MotorColumn], progress: (Int) -> Void,
              _ body: ([Double], Double?) -> Void) throws(TraceError) {
        let indices = columns.map { names.firstIndex(of: $0)! }
        var values = [Double](repeating: 0, count: indices.count)
        func throttle(_ cell: (Int) throws(TraceError) -> Double) throws(TraceError) -> Double? {
            guard !motors.isEmpty else { return nil }
            var sum = 0.0
            for motor in motors { sum += motor.command(try cell(motor.index)) }
            return sum / Double(motors.count)
        }
        if let kept {
            for (n, row) in kept.enumerated() {
                for (slot, index) in indices.enumerated() { values[slot] = row[index] }
                body(values, try throttle { row[$0] })
                if (n + 1) & 0xFFFF == 0 { progress(n + 1) }
            }
            return
        }
        var reader = try TraceReader(path: path, sensorTrace: false)
        var n = 0
        while try reader.next() != nil {
            for (slot, index) in indices.enumerated() { values[slot] = try reader.doubleValue(ofColumn: index) }
            body(values, try throttle { (index: Int) throws(TraceError) -> Double in try reader.doubleValue(ofColumn: index) })
            n += 1
            if n & 0xFFFF == 0 { progress(n) }
        }
    }
}

import PoiseMath

/// The numeric columns of a CSV or binary file, read through the trace reader (so bad
/// input gets the same `FILE:LINE:COLUMN` errors). Empty cells become NaN (gaps in plots).
/// Only the time and the columns asked for are kept: a 5-million-row trace with 14 columns
/// would otherwise take over half a gigabyte to plot three of them.
public struct ColumnTable {
    public let path: String
    public let names: [String]
    /// The file's `# key=value` lines (an estimate's `frame`, for instance).
    public let metadata: TraceMetadata
    public var time: [Double] = []
    public var values: [String: [Double]] = [:]

    /// - Parameters:
    ///   - keeping: given the header's names, the names to keep (nil: every column).
    ///   - progress: called every 65 536 rows with the count so far.
    public init(path: String, keeping: (([String]) -> Set<String>)? = nil,
                progress: (Int) -> Void = { _ in }) throws(TraceError) {
        var reader = try TraceReader(path: path, sensorTrace: false)
        self.path = path
        names = reader.columns
        metadata = reader.metadata
        guard let timeColumn = names.firstIndex(of: "t") else {
            throw TraceError(file: path, line: reader.line, column: 1, message: "no time column 't' (columns: \(names.joined(separator: ",")))")
        }
        let kept = keeping?(names)
        let indices = names.indices.filter { $0 == timeColumn || kept?.contains(names[$0]) ?? true }
        var columns = [[Double]](repeating: [], count: indices.count)
        var rows = 0
        while try reader.next() != nil {
            for (slot, index) in indices.enumerated() {
                columns[slot].append(try reader.doubleValue(ofColumn: index))
            }
            rows += 1
            if rows & 0xFFFF == 0 { progress(rows) }
        }
        for (slot, index) in indices.enumerated() {
            if index == timeColumn { time = columns[slot] } else { values[names[index]] = columns[slot] }
        }
    }

    /// Roll, pitch and yaw (radians) of a trace's ground truth (body-to-ENU), reported in
    /// `frame` as replay reports its estimates and true_ columns: an arbitrary frame takes the
    /// truth's first heading as yaw 0.
    public init(truthEulerOf path: String, in frame: OutputFrame = .axes(.enu), declinationDegrees: Float = 0) throws(TraceError) {
        var reader = try TraceReader(path: path)
        self.path = path
        names = ["t", "roll", "pitch", "yaw"]
        metadata = reader.metadata
        var transform = OutputFrameTransform(frame, declinationDegrees: declinationDegrees)
        guard reader.layout.hasTruth else {
            throw TraceError(file: path, line: reader.line, column: 1, message: "no ground truth columns qw,qx,qy,qz")
        }
        var roll: [Double] = [], pitch: [Double] = [], yaw: [Double] = []
        while let sample = try reader.next() {
            time.append(sample.time)
            if let q = sample.truth {
                let e = EulerAngles(transform.attitude(fromENU: q.normalized))
                roll.append(Double(e.roll)); pitch.append(Double(e.pitch)); yaw.append(Double(e.yaw))
            } else {
                roll.append(.nan); pitch.append(.nan); yaw.append(.nan)
            }
        }
        values = ["roll": roll, "pitch": pitch, "yaw": yaw]
    }
}

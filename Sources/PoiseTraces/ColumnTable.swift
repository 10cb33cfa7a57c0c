import PoiseMath

/// Every numeric column of a CSV or binary file, read through the trace reader (so bad
/// input gets the same `FILE:LINE:COLUMN` errors). Empty cells become NaN (gaps in plots).
public struct ColumnTable {
    public let path: String
    public let names: [String]
    public var time: [Double] = []
    public var values: [String: [Double]] = [:]

    public init(path: String) throws(TraceError) {
        var reader = try TraceReader(path: path, sensorTrace: false)
        self.path = path
        names = reader.columns
        guard let timeColumn = names.firstIndex(of: "t") else {
            throw TraceError(file: path, line: reader.line, column: 1, message: "no time column 't' (columns: \(names.joined(separator: ",")))")
        }
        var columns = [[Double]](repeating: [], count: names.count)
        while try reader.next() != nil {
            for index in names.indices {
                columns[index].append(try reader.doubleValue(ofColumn: index))
            }
        }
        time = columns[timeColumn]
        for (index, name) in names.enumerated() where index != timeColumn {
            values[name] = columns[index]
        }
    }

    /// Roll, pitch and yaw (radians) of a trace's ground truth.
    public init(truthEulerOf path: String) throws(TraceError) {
        var reader = try TraceReader(path: path)
        self.path = path
        names = ["t", "roll", "pitch", "yaw"]
        guard reader.layout.hasTruth else {
            throw TraceError(file: path, line: reader.line, column: 1, message: "no ground truth columns qw,qx,qy,qz")
        }
        var roll: [Double] = [], pitch: [Double] = [], yaw: [Double] = []
        while let sample = try reader.next() {
            time.append(sample.time)
            if let q = sample.truth {
                let e = EulerAngles(q.normalized)
                roll.append(Double(e.roll)); pitch.append(Double(e.pitch)); yaw.append(Double(e.yaw))
            } else {
                roll.append(.nan); pitch.append(.nan); yaw.append(.nan)
            }
        }
        values = ["roll": roll, "pitch": pitch, "yaw": yaw]
    }
}

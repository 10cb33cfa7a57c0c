import PoiseMath
import PoiseTraces

/// The base columns of a filter-only replay's row, `t,qw,qx,qy,qz,roll,pitch,yaw`: written
/// the same way by the host's `poise replay` (PoiseReplay's `RowWriter`, which adds the
/// `--columns` groups after them) and the board's.
public enum ReplayRow {
    public static let baseColumns = ["t", "qw", "qx", "qy", "qz", "roll", "pitch", "yaw"]

    /// The quaternion, then Core Motion's Euler angles of it (roll, pitch, yaw: the header's order).
    @inlinable
    public static func append(_ q: Quaternion, to writer: inout CSVTraceWriter) {
        writer.append(q.w); writer.append(q.x); writer.append(q.y); writer.append(q.z)
        let e = EulerAngles(q)
        writer.append(e.roll); writer.append(e.pitch); writer.append(e.yaw)
    }
}

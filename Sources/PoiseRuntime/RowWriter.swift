import PoiseFusion
import PoiseMath
import PoiseTraces

/// Formats one replay output row: base columns, then the chosen column groups.
/// Holds the per-run state those need (frame references, orientation hysteresis).
struct RowWriter {
    let columns: [ReplayColumn]
    let headingValid: Bool
    var frame: OutputFrameTransform
    var truthFrame: OutputFrameTransform
    var orientation = DeviceOrientationDetector()

    init(options: ReplayOptions) {
        columns = options.columns
        headingValid = options.frame.isNorthReferenced && options.useMagnetometer
        frame = OutputFrameTransform(options.frame, declinationDegrees: options.declinationDegrees)
        truthFrame = frame
    }

    mutating func write(sample: TraceSample, input: InertialSample, attitude enu: Quaternion,
                        status: FilterStatus, to writer: inout CSVTraceWriter) {
        let q = frame.attitude(fromENU: enu)
        writer.append(sample.time)
        append(q, to: &writer)
        for column in columns {
            switch column {
            case .gravity:
                append(enu.gravity(), to: &writer)
            case .userAcceleration:
                append(enu.userAcceleration(accelerometer: input.accelerometer), to: &writer)
            case .rotationRate:
                append(input.gyroscope - status.gyroscopeBias, to: &writer)
            case .magneticField:
                if let m = input.magnetometer { append(m, to: &writer) } else { appendEmpty(3, to: &writer) }
            case .heading:
                if headingValid { writer.append(enu.compassHeading()) } else { writer.appendEmpty() }
            case .tilt:
                writer.append(enu.tilt)
            case .bias:
                append(status.gyroscopeBias, to: &writer)
                if status.gyroscopeBiasUncertainty.isFinite {
                    writer.append(status.gyroscopeBiasUncertainty)
                } else {
                    writer.appendEmpty()
                }
            case .status:
                writer.append(Double(status.flags.rawValue))
                writer.append(Double(status.rejectedSamples))
            case .orientation:
                _ = orientation.update(gravity: enu.gravity())
                var name = orientation.orientation.rawValue
                name.withUTF8 { writer.append(cellText: UnsafeRawBufferPointer($0)) }
            case .truth:
                if let truth = sample.truth {
                    append(truthFrame.attitude(fromENU: truth.normalized), to: &writer)
                } else {
                    appendEmpty(7, to: &writer)
                }
            }
        }
        writer.endRow()
    }

    /// Quaternion then Core Motion Euler angles (roll, pitch, yaw order of the header).
    private func append(_ q: Quaternion, to writer: inout CSVTraceWriter) {
        writer.append(q.w); writer.append(q.x); writer.append(q.y); writer.append(q.z)
        let e = EulerAngles(q)
        writer.append(e.roll); writer.append(e.pitch); writer.append(e.yaw)
    }

    private func append(_ v: SIMD3<Float>, to writer: inout CSVTraceWriter) {
        writer.append(v.x); writer.append(v.y); writer.append(v.z)
    }

    private func appendEmpty(_ n: Int, to writer: inout CSVTraceWriter) {
        for _ in 0..<n { writer.appendEmpty() }
    }
}

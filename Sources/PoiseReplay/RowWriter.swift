import PoiseFusion
import PoiseMath
import PoiseReplayCore
import PoiseTraces

/// Formats one replay output row: base columns, then the chosen column groups.
/// Holds the per-run state those need (frame references, orientation hysteresis).
struct RowWriter {
    let columns: [ReplayColumn]
    let headingValid: Bool
    /// Added to magnetic headings: the declination in a true-north frame, else 0. Degrees.
    let headingOffset: Float
    var frame: OutputFrameTransform
    var truthFrame: OutputFrameTransform
    var orientation = DeviceOrientationDetector()

    init(options: ReplayOptions) {
        columns = options.columns
        headingValid = options.frame.isNorthReferenced && options.useMagnetometer
        headingOffset = options.frame == .reference(.xTrueNorthZVertical) ? options.declinationDegrees : 0
        frame = OutputFrameTransform(options.frame, declinationDegrees: options.declinationDegrees)
        truthFrame = frame
    }

    mutating func write(sample: TraceSample, input: InertialSample, attitude enu: Quaternion,
                        status: FilterStatus, to writer: inout CSVTraceWriter) {
        let q = frame.attitude(fromENU: enu)
        writer.append(sample.time)
        append(q, to: &writer)
        guard !columns.isEmpty else { writer.endRow(); return }
        let motion = DeviceMotion(attitude: enu, status: status, sample: input, northReferenced: headingValid)
        for column in columns {
            switch column {
            case .gravity:
                append(motion.gravity, to: &writer)
            case .userAcceleration:
                append(motion.userAcceleration, to: &writer)
            case .rotationRate:
                append(motion.rotationRate, to: &writer)
            case .magneticField:
                if let m = motion.magneticField { append(m, to: &writer) } else { appendEmpty(3, to: &writer) }
            case .heading:
                if let heading = motion.heading {
                    var h = heading + headingOffset
                    if h < 0 { h += 360 } else if h >= 360 { h -= 360 }
                    writer.append(h)
                } else {
                    writer.appendEmpty()
                }
            case .tilt:
                writer.append(enu.tilt)
            case .bias:
                append(motion.gyroscopeBias, to: &writer)
                if motion.gyroscopeBiasUncertainty.isFinite {
                    writer.append(motion.gyroscopeBiasUncertainty)
                } else {
                    writer.appendEmpty()
                }
            case .hardIron:
                append(status.magnetometerOffset, to: &writer)
            case .gyroscopeScale:
                append(status.gyroscopeScale, to: &writer)
            case .magnetometerLatency:
                writer.append(status.magnetometerLatency)
            case .status:
                writer.append(integer: Int(motion.flags.rawValue))
                writer.append(integer: Int(status.rejectedSamples))
            case .orientation:
                _ = orientation.update(gravity: motion.gravity)
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

    /// Quaternion then Core Motion Euler angles: the base columns' writer the board's replay shares.
    private func append(_ q: Quaternion, to writer: inout CSVTraceWriter) {
        ReplayRow.append(q, to: &writer)
    }

    private func append(_ v: SIMD3<Float>, to writer: inout CSVTraceWriter) {
        writer.append(v.x); writer.append(v.y); writer.append(v.z)
    }

    private func appendEmpty(_ n: Int, to writer: inout CSVTraceWriter) {
        for _ in 0..<n { writer.appendEmpty() }
    }
}

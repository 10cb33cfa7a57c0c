import PoiseControl
import PoiseFlightCore
import PoiseMath

/// What a simulated-time run (`poise simulate`) saw, for its summary and plot: the true and
/// estimated attitude, the outputs and the arming state per tick (decimated to ≤ 20 000 points).
public struct SimulationReport: Sendable {
    public var time: [Double] = []
    /// Core Motion pitch and roll, degrees.
    public var truePitch: [Double] = [], trueRoll: [Double] = []
    public var estimatedPitch: [Double] = [], estimatedRoll: [Double] = []
    /// Per output channel, its physical value (µs for pulses, the level for GPIO).
    public var outputs: [[Double]] = []
    public var channelNames: [String] = []
    public var arm: [Double] = []
    /// When the loop first armed, s (nil: never).
    public var armedAt: Double?
    /// Largest |true pitch| and |true roll| from 2 s after arming to the end, degrees.
    public var worstTiltAfterSettling: (pitch: Double, roll: Double) = (0, 0)
    /// The first time, after arming, that |true pitch| stayed within 1° to the end, s.
    public var pitchWithinOneDegreeFrom: Double?
    /// When the supervisor first failed safe for a reason of its own (a tilt, a lost sensor;
    /// not the end of the run), s, and why; nil: never.
    public var failsafeAt: Double?
    public var failsafeReason: SafetyReason = .none
    /// Largest true tilt, max(|pitch|, |roll|), from arming to the end, degrees.
    public var worstTiltSinceArming = 0.0
    /// Root mean square of the true pitch over the ticks from ``pitchWithinOneDegreeFrom`` to
    /// the end, degrees (0 when it never settled). The setpoint is level, so this is the error.
    public var pitchRMSAfterSettling: Double { settledTicks > 0 ? (settledSquares / Double(settledTicks)).squareRoot() : 0 }
    /// Sum of squared true pitch and ticks since the current candidate settling time.
    var settledSquares = 0.0, settledTicks = 0
    /// A balancing robot's drive-script tracking (DriveTracking.swift).
    public var drive = DriveTracking()
    /// The estimate against the truth (what a scripted-motion run measures; SimulationReport+Motion.swift).
    public var estimateError = EstimateError()
    var keepEvery = 1
    var count = 0

    init(channelNames: [String], expectedTicks: Int) {
        self.channelNames = channelNames
        outputs = channelNames.map { _ in [] }
        keepEvery = max(1, expectedTicks / 20_000)
    }

    mutating func add(_ r: TickRecord, isPulse: [Bool]) {
        let truth = EulerAngles(r.truth)
        let estimate = EulerAngles(r.attitude)
        let tp = Double(truth.pitch) * 180 / .pi, tr = Double(truth.roll) * 180 / .pi
        if armedAt == nil, r.armState == .armed { armedAt = r.time }
        if let armedAt {
            if r.time >= armedAt + 2 {
                worstTiltAfterSettling.pitch = max(worstTiltAfterSettling.pitch, abs(tp))
                worstTiltAfterSettling.roll = max(worstTiltAfterSettling.roll, abs(tr))
            }
            worstTiltSinceArming = max(worstTiltSinceArming, abs(tp), abs(tr))
            if abs(tp) > 1 {
                pitchWithinOneDegreeFrom = nil
                settledSquares = 0
                settledTicks = 0
            } else {
                if pitchWithinOneDegreeFrom == nil { pitchWithinOneDegreeFrom = r.time }
                settledSquares += tp * tp
                settledTicks += 1
            }
        }
        if failsafeAt == nil, r.armState == .failsafe, r.eventReason != .none, r.eventReason != .stopRequested {
            failsafeAt = r.time
            failsafeReason = r.eventReason
        }
        drive.add(r)
        estimateError.add(r)
        count += 1
        guard count % keepEvery == 0 else { return }
        time.append(r.time)
        truePitch.append(tp); trueRoll.append(tr)
        estimatedPitch.append(Double(estimate.pitch) * 180 / .pi); estimatedRoll.append(Double(estimate.roll) * 180 / .pi)
        for index in 0..<outputs.count {
            outputs[index].append(isPulse[index] ? Double(r.outputs[index]) / 1000 : Double(r.outputs[index]))
        }
        arm.append(Double(r.armState.rawValue))
    }
}

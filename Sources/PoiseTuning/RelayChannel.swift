import PoiseControl

/// One loop's recording during its relay experiment: the plant's input (the relay's output)
/// and the loop's measurement, tick by tick, once the limit cycle has had time to form.
struct RelayChannel {
    var input: [Double] = []
    var output: [Double] = []

    init(capacity: Int) {
        input.reserveCapacity(capacity)
        output.reserveCapacity(capacity)
    }

    mutating func add(input u: Float, output y: Float) {
        input.append(Double(u))
        output.append(Double(y))
    }

    func point(dt: Double) -> RelayPoint? { RelayAnalysis.point(input: input, output: output, dt: dt) }
}

/// A relay made of a `PIDController`: a P gain so high that the output sits at its ±clamp
/// except within a band of ±`band` around zero error — Åström–Hägglund's relay without a
/// code path of its own in the tick, so the experiment runs the tick exactly as flown.
enum RelayPID {
    static func settings(amplitude: Float, band: Float, lead: Float = 0, derivativeCutoffHz: Float) -> PIDSettings {
        let gain = amplitude / band
        return PIDSettings(proportionalGain: gain, integralGain: 0, derivativeGain: gain * lead,
                           derivativeCutoffHz: derivativeCutoffHz, outputLimit: amplitude, integralLimit: 0)
    }
}

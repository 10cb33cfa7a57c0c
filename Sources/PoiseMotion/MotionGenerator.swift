import PoiseMath

/// Produces exact ground-truth samples of a ``MotionScript`` at a fixed sample rate.
///
/// Sample `i` is at `t = Double(i) / sampleRate` (computed from the index, never accumulated)
/// for every `t` in `[0, script.duration]`. Within each segment the attitude is closed-form,
/// `q(t) = q₀ ⊗ exp(axis · θ(t) / 2)` for a fixed body axis, and the angular rate is the
/// analytic `axis · θ'(t)`, so integrating the rate reproduces the attitude exactly (up to
/// the integrator's own error). Computation is in `Double` with ``Elementary`` (PoiseMath), so the
/// same script, rate and settings give bit-identical samples on every machine.
///
/// ```swift
/// let script = try MotionScript(parsing: "rest 1\nrotate z 90 deg over 2 s\nrest 1")
/// var generator = try MotionGenerator(script: script, sampleRate: 100)
/// while let sample = generator.next() {
///     print(sample.time, sample.attitude, sample.angularRate, sample.specificForce)
/// }
/// let scored = generator.movementRanges   // [Range<Int>] of sample indices, e.g. for `# movement=a:b`
/// ```
public struct MotionGenerator: Sendable, IteratorProtocol, Sequence {
    /// The script being played.
    public let script: MotionScript
    /// Samples per second.
    public let sampleRate: Double
    /// Gravity and magnetic field.
    public let environment: MotionEnvironment
    /// Attitude at t = 0, body-to-ENU (after applying the initial heading).
    public let initialAttitude: Quaternion
    /// Number of samples the generator yields in total.
    public let sampleCount: Int

    private let startTimes: [Double]
    private let startAttitudes: [RotationD]
    private let gravity: Vector3D
    private let fieldENU: Vector3D
    private let leverArm: Vector3D
    private var nextIndex = 0
    private var segmentCursor = 0

    /// - Parameters:
    ///   - script: the motion.
    ///   - sampleRate: samples per second, > 0 (e.g. 285.714 or 1000).
    ///   - initialAttitude: body-to-ENU attitude at t = 0 (normalised here).
    ///   - initialHeading: an extra yaw, radians, about the world up axis (counter-clockwise
    ///     seen from above), applied on top of `initialAttitude`.
    ///   - environment: gravity and the magnetic field.
    /// - Throws: ``MotionSettingsError`` when the rate is not positive and finite or the
    ///   script would produce more than 2³¹ samples, or a hand-built segment is invalid
    ///   (see ``MotionSegment/problem``).
    public init(
        script: MotionScript, sampleRate: Double, initialAttitude: Quaternion = .identity,
        initialHeading: Double = 0, environment: MotionEnvironment = .default
    ) throws(MotionSettingsError) {
        guard sampleRate > 0, sampleRate.isFinite else {
            throw MotionSettingsError("sample rate must be positive and finite, got \(sampleRate)")
        }
        for (k, segment) in script.segments.enumerated() {
            if let problem = segment.problem { throw MotionSettingsError("segment \(k + 1) of \(script.name): \(problem)") }
        }
        let duration = script.duration
        let count = script.segments.isEmpty ? 0 : (duration * sampleRate * (1 + 1e-12)).rounded(.down) + 1
        guard count <= Double(Int32.max) else {
            throw MotionSettingsError("script of \(duration) s at \(sampleRate) Hz gives too many samples")
        }
        self.script = script
        self.sampleRate = sampleRate
        self.environment = environment
        self.sampleCount = Int(count)
        gravity = Vector3D(0, 0, environment.gravity)
        let f = environment.magneticFieldENU
        fieldENU = Vector3D(f.x, f.y, f.z)
        leverArm = Vector3D(script.leverArm.x, script.leverArm.y, script.leverArm.z)

        let heading = RotationD(axis: Vector3D(0, 0, 1), angle: initialHeading)
        var attitude = (heading * RotationD(initialAttitude)).normalized
        self.initialAttitude = attitude.float
        var times: [Double] = []
        var attitudes: [RotationD] = []
        times.reserveCapacity(script.segments.count)
        attitudes.reserveCapacity(script.segments.count)
        var time = 0.0
        for segment in script.segments {
            times.append(time)
            attitudes.append(attitude)
            attitude = Self.state(of: segment, start: attitude, at: segment.duration).attitude.normalized
            time += segment.duration
        }
        startTimes = times
        startAttitudes = attitudes
    }

    /// The next sample, or `nil` after the end of the script.
    public mutating func next() -> MotionSample? {
        guard nextIndex < sampleCount else { return nil }
        let index = nextIndex
        nextIndex += 1
        let t = Double(index) / sampleRate
        while segmentCursor + 1 < startTimes.count, t >= startTimes[segmentCursor + 1] {
            segmentCursor += 1
        }
        let segment = script.segments[segmentCursor]
        let local = Swift.min(Swift.max(t - startTimes[segmentCursor], 0), segment.duration)
        let state = Self.state(of: segment, start: startAttitudes[segmentCursor], at: local)
        let q = state.attitude
        // A sensor off the centre of rotation moves on an arc: tangential ω̇ × r and
        // centripetal ω × (ω × r), both in the body frame.
        let w = state.rate
        let lever = state.angularAcceleration.cross(leverArm) + w.cross(w.cross(leverArm))
        let acceleration = state.acceleration + q.rotate(lever)
        return MotionSample(
            index: index, time: t, attitude: q.float, angularRate: state.rate.float,
            specificForce: (q.inverseRotate(state.acceleration + gravity) + lever).float,
            magneticField: q.inverseRotate(fieldENU).float, linearAcceleration: acceleration.float,
            movement: segment.isMovement, segmentIndex: segmentCursor)
    }

    /// ``movementRanges`` in the trace header syntax: `"a:b,c:d"` (empty when none), for
    /// `# movement=` + this.
    public var movementHeaderValue: String {
        movementRanges.map { "\($0.lowerBound):\($0.upperBound)" }.joined(separator: ",")
    }

    /// Sample-index ranges `[a, b)` that lie in movement segments (adjacent movement segments
    /// merged), matching ``MotionSample/movement`` exactly. For a trace header
    /// `# movement=a:b,c:d`.
    public var movementRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (k, segment) in script.segments.enumerated() where segment.isMovement {
            let lower = firstIndex(atOrAfter: startTimes[k])
            let upper = k + 1 < startTimes.count ? firstIndex(atOrAfter: startTimes[k + 1]) : sampleCount
            guard lower < upper else { continue }
            if let last = ranges.last, last.upperBound == lower {
                ranges[ranges.count - 1] = last.lowerBound..<upper
            } else {
                ranges.append(lower..<upper)
            }
        }
        return ranges
    }

    /// The first sample index whose time is ≥ `time`, by the same comparison `next()` uses.
    private func firstIndex(atOrAfter time: Double) -> Int {
        var i = Swift.max(0, Int(Swift.min((time * sampleRate).rounded(.up), Double(sampleCount))))
        while i > 0, Double(i - 1) / sampleRate >= time { i -= 1 }
        while i < sampleCount, Double(i) / sampleRate < time { i += 1 }
        return Swift.min(i, sampleCount)
    }

    /// 2π × the fractional part of `cycles`: keeps sine arguments small in long segments.
    static func phase(cycles: Double) -> Double {
        2 * Double.pi * (cycles - cycles.rounded(.down))
    }

    /// Attitude, body angular rate, world linear acceleration (of the centre of rotation) and
    /// body angular acceleration `u` seconds into `segment`.
    static func state(of segment: MotionSegment, start q0: RotationD, at u: Double)
        -> (attitude: RotationD, rate: Vector3D, acceleration: Vector3D, angularAcceleration: Vector3D)
    {
        switch segment {
        case .rest:
            return (q0, .zero, .zero, .zero)
        case .rotate(let axis, let angle, let duration):
            let a = Vector3D(axis.x, axis.y, axis.z)
            let tau = u / duration
            let theta = angle * MinimumJerk.position(tau)
            let rate = angle * MinimumJerk.velocity(tau) / duration
            let angular = angle * MinimumJerk.acceleration(tau) / (duration * duration)
            return (q0 * RotationD(axis: a, angle: theta), rate * a, .zero, angular * a)
        case .spin(let axis, let rate, _):
            let a = Vector3D(axis.x, axis.y, axis.z)
            return (q0 * RotationD(axis: a, angle: rate * u), rate * a, .zero, .zero)
        case .wobble(let axis, let amplitude, let frequency, _):
            let a = Vector3D(axis.x, axis.y, axis.z)
            let omega = 2 * Double.pi * frequency
            let phase = Self.phase(cycles: frequency * u)
            let sine = Elementary.sin(phase)
            let theta = amplitude * sine
            let rate = amplitude * omega * Elementary.cos(phase)
            return (q0 * RotationD(axis: a, angle: theta), rate * a, .zero, (-amplitude * omega * omega * sine) * a)
        case .shake(let direction, let amplitude, let frequency, _):
            let d = Vector3D(direction.x, direction.y, direction.z)
            let acceleration = amplitude * Elementary.sin(Self.phase(cycles: frequency * u))
            return (q0, .zero, q0.rotate(acceleration * d), .zero)
        case .move(let direction, let distance, let duration):
            let d = Vector3D(direction.x, direction.y, direction.z)
            let acceleration = distance * MinimumJerk.acceleration(u / duration) / (duration * duration)
            return (q0, .zero, q0.rotate(acceleration * d), .zero)
        case .strokes(let direction, let frequency, let stop, let stopDuration, _):
            let d = Vector3D(direction.x, direction.y, direction.z)
            let acceleration = Self.strokeAcceleration(
                at: u, frequency: frequency, stop: stop, stopDuration: stopDuration)
            return (q0, .zero, q0.rotate(acceleration * d), .zero)
        }
    }

    /// Acceleration along the stroke `u` seconds into a `strokes` segment. Period P = 1/f,
    /// stop S: a push a·sin(πt/T₁) over T₁ = P/2 − S reaches the speed V = 2·stop·S/π that
    /// the stop −stop·sin(π(t − T₁)/S) takes away; the body has moved D = V·P/4 and comes
    /// back over P/2 by a minimum-jerk move.
    static func strokeAcceleration(at u: Double, frequency: Double, stop: Double, stopDuration: Double) -> Double {
        let cycles = frequency * u
        let period = 1 / frequency
        let t = (cycles - cycles.rounded(.down)) * period
        let half = period / 2
        let push = half - stopDuration
        let speed = 2 * stop * stopDuration / Double.pi
        if t < push {
            return Double.pi * speed / (2 * push) * Elementary.sin(Double.pi * t / push)
        }
        if t < half {
            return -stop * Elementary.sin(Double.pi * (t - push) / stopDuration)
        }
        let distance = speed * period / 4
        return -distance * MinimumJerk.acceleration((t - half) / half) / (half * half)
    }
}

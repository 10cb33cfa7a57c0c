import PoiseControl
import PoiseFusion

extension TickRecord {
    /// Fills the record with one tick: what the board read, what the loop told the tick, and
    /// what the core computed from them. The one place a record is built from a tick — the
    /// live loop and the tick replay both call it — so both record the same fields the same
    /// way; the host timings (lateness, compute time) are the loop's to set.
    @inlinable
    public mutating func set<Filter: AttitudeFilter>(tick: UInt64, tickTime: Double, reading: SensorReading,
                                                    loop: LoopStatus, core: borrowing FlightCore<Filter>,
                                                    output: TickOutput) {
        self.tick = tick
        self.tickTime = tickTime
        time = reading.time
        sampleValid = reading.hasSample
        readFailed = reading.readFailed
        sensorState = reading.state
        overrunStreak = UInt16(clamping: loop.overrunStreak)
        stopRequested = loop.stopRequested
        outputFaulted = loop.unexpectedError
        if let sample = reading.sample {
            accelerometer = sample.accelerometer
            gyroscope = sample.gyroscope
            magnetometer = sample.magnetometer ?? SIMD3(repeating: .nan)
            gyroscopeClipped = sample.gyroscopeClipped
            filteredGyroscope = core.lastFilteredGyroscope
        } else {
            filteredGyroscope = SIMD3(repeating: .nan)
            gyroscopeClipped = false
            accelerometer = SIMD3(repeating: .nan)
            gyroscope = SIMD3(repeating: .nan)
            magnetometer = SIMD3(repeating: .nan)
        }
        attitude = core.attitude
        rotationRate = core.rotationRate
        filterFlags = core.filter.status.flags
        stallNanoseconds = loop.stallNanoseconds
        // The estimate was held, not propagated, through the stall: say so.
        if loop.stallNanoseconds > 0 { filterFlags.insert(.stale) }
        armState = output.state
        eventReason = output.event?.reason ?? .none
        truth = reading.truth
        sensorNotices = reading.notices
        signals = core.signals
        outputs = output.commands
        drive.setpoint = loop.driveSetpoint
        quadSetpoint = loop.quadSetpoint
        drive.trueSpeed = reading.trueSpeed
        if case .balance(let balance) = core.controller {
            drive.commandedSpeed = balance.commandedSpeed
            drive.commandedAcceleration = balance.commandedAcceleration
            drive.speedEstimate = balance.speedEstimate
            drive.leanSetpoint = balance.leanSetpoint
        }
    }
}

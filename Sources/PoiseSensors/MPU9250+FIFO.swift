import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

extension MPU9250 {
    /// FIFO mode: INT_STATUS (overflow), FIFO_COUNT, then whole 14-byte frames in one read,
    /// at most `maxFramesPerRead`. An overflow or a count that is not a whole number of frames
    /// means lost alignment: the FIFO is reset and counted.
    mutating func readFIFO(_ deliver: (SensorSample) -> Void) {
        var status: UInt8 = 0
        guard read(register: MPU9250Register.interruptStatus.rawValue, into: &status) else { return }
        guard nextCheckedRegisterHolds() else { return }
        if status & InterruptStatus.fifoOverflow.rawValue != 0 {
            counters.fifoOverflows += 1
            return recoverFIFO(.fifoOverflow)
        }
        var countBytes = InlineArray<2, UInt8>(repeating: 0)
        guard read(register: MPU9250Register.fifoCountHigh.rawValue, into: &countBytes) else { return }
        let count = Int(countBytes[0] & 0x1F) << 8 | Int(countBytes[1])
        guard count % 14 == 0 else {
            counters.fifoMisaligned += 1
            notices.fifoCount = UInt16(clamping: count)
            return recoverFIFO(.fifoMisaligned)
        }
        let cap = max(1, min(settings.maxFramesPerRead, maximumFIFOFramesPerRead))
        let frames = min(count / 14, cap)
        if count / 14 > cap { counters.fifoCapped += 1 }
        guard frames > 0 else { return }
        var buffer = InlineArray<448, UInt8>(repeating: 0)
        guard read(register: MPU9250Register.fifoReadWrite.rawValue, into: &buffer, count: frames * 14) else { return }
        if fifoEpisode {
            fifoEpisode = false
            notices.events.insert(.fifoFlowing)
        }
        counters.fifoFrames += frames
        for frame in 0..<frames {
            var burst = MPU9250Burst(repeating: 0)
            for i in 0..<14 { burst[i] = buffer[frame * 14 + i] }
            guard plausible(burst) else { return }
            let reading = decodeInertialBurst(burst, scale: scale)
            lastTemperature = reading.temperature
            deliver(finish(reading))
        }
        readMagnetometerIfDue()
    }

    /// Resets the FIFO; says why (`event`) once per episode.
    mutating func recoverFIFO(_ event: SensorNotices.Events) {
        if !fifoEpisode {
            fifoEpisode = true
            notices.events.insert(event)
        }
        do {
            try resetFIFO()
        } catch {
            tickFailed(error.errno)
        }
    }
}

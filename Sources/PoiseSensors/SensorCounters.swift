/// What the driver has counted since it was created.
public struct SensorCounters: Sendable, Equatable {
    /// Calls to `tick`.
    public var ticks = 0
    /// Samples delivered.
    public var samples = 0
    /// Ticks whose read found no new conversion (INT_STATUS data-ready clear): a sample rate
    /// below the tick rate, or a chip that stopped converting.
    public var notReady = 0
    /// Failed read attempts (including those a retry recovered).
    public var readFailures = 0
    /// Reads that succeeded on a retry within the same tick.
    public var recoveredByRetry = 0
    /// Ticks whose read failed after all retries.
    public var failedTicks = 0
    /// Times the sensor was declared lost.
    public var lost = 0
    /// Re-initialisation attempts after being lost, and how many succeeded.
    public var reinitAttempts = 0
    public var reinitSuccesses = 0
    /// Times a re-read configuration register had changed (the chip reset itself).
    public var chipResets = 0
    /// Checked-register reads that differed once and not on the immediate re-read (a bit
    /// flipped on the wire), not taken for a reset.
    public var corruptedRegisterReads = 0
    /// Times the data was declared stuck.
    public var stuckData = 0
    /// Samples with a saturated axis.
    public var saturatedSamples = 0
    /// FIFO overflows and misaligned counts (each followed by a FIFO reset).
    public var fifoOverflows = 0
    public var fifoMisaligned = 0
    /// Frames read from the FIFO, and ticks that left frames behind because of the cap.
    public var fifoFrames = 0
    public var fifoCapped = 0
    /// Magnetometer reads, new fields, reads without new data, overflows (HOFL), failures.
    public var magnetometerReads = 0
    public var magnetometerSamples = 0
    public var magnetometerNotReady = 0
    public var magnetometerOverflows = 0
    public var magnetometerFailures = 0

    public init() {}
}

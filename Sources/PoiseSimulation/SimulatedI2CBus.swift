import PoiseHAL

/// One simulated I²C bus with the MPU-9250 (and its AK8963 at 0x0C) and a PCA9685 on it,
/// routed by address, as the header bus of a real board carries both.
///
/// Counts transactions per device and the bus time they cost in bit periods (9 per byte, one
/// each for START, repeated START and STOP), so tests can check a tick's bus budget.
public struct SimulatedI2CBus<Motion: SimulatedMotion>: I2CBus {
    public let path = "sim"
    public var imu: SimulatedMPU9250<Motion>
    /// The PCA9685, when the board has one.
    public var pca9685: SimulatedPCA9685?
    public internal(set) var counters = SimulatedI2CBusCounters()

    public init(imu: SimulatedMPU9250<Motion>, pca9685: SimulatedPCA9685? = SimulatedPCA9685()) {
        self.imu = imu
        self.pca9685 = pca9685
    }

    public var functionality: I2CFunctionality { imu.functionality }

    /// The MPU-9250's output data rate now, Hz (read in place, without copying the chip).
    @inlinable
    public var imuOutputRate: Double { imu.outputRate }

    /// Routes the transfer by address, in place: copying the PCA9685 (its 256 registers) out
    /// and back on every sensor read cost more than the read. A probe (nothing written) is
    /// not counted in the bus time: a scan is no tick's work.
    // Not `@_specialize(exported:)` for the board's motion: the release compiler emitted no
    // such symbol for these typed-throws functions while callers in this module referred to
    // it, so `poise` failed to link. The board (same module) and the cross-module-optimised
    // loop specialise these calls themselves.
    public mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        if write.isEmpty {
            if let chip = pca9685, chip.address == address {
                guard !chip.absent else {
                    throw I2CError(.read(count: read.count, register: 0), address: address, bus: path, errno: .remoteIO)
                }
                return
            }
            try imu.transfer(address: address, write: write, read: read)
            return
        }
        // 9 bit periods a byte (the address byte included), START and STOP; a read adds its
        // address byte, its data and the repeated START.
        counters.bitPeriods += 9 * (1 + write.count) + 2
        if read.count > 0 { counters.bitPeriods += 9 * (1 + read.count) + 1 }
        if pca9685?.address == address {
            counters.pca9685Transactions += 1
            if read.count > 0 {
                try pca9685!.read(register: write[0], into: read)
            } else {
                try pca9685!.write(register: write[0], bytes: UnsafeRawBufferPointer(rebasing: write[1...]))
            }
            return
        }
        counters.imuTransactions += 1
        try imu.transfer(address: address, write: write, read: read)
    }
}

/// Transactions on a ``SimulatedI2CBus`` by device, and the bus time they took.
public struct SimulatedI2CBusCounters: Sendable, Equatable {
    /// Transactions to the MPU-9250 and AK8963.
    public var imuTransactions = 0
    /// Transactions to the PCA9685.
    public var pca9685Transactions = 0
    /// Bus time in SCL periods: 10 µs each at 100 kHz, 2.5 µs at 400 kHz.
    public var bitPeriods = 0
    public init() {}
}

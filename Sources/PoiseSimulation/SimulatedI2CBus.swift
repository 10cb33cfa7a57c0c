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

    // Not `@_specialize(exported:)` for the board's motion: the release compiler emitted no
    // such symbol for these typed-throws functions while callers in this module referred to
    // it, so `poise` failed to link. The board (same module) and the cross-module-optimised
    // loop specialise these calls themselves.
    public mutating func writeThenRead(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        counters.bitPeriods += 3 * 9 + 9 * buffer.count + 3
        // Routed in place: copying the PCA9685 (its 256 registers) out and back on every
        // sensor read cost more than the read.
        if pca9685?.address == address {
            counters.pca9685Transactions += 1
            try pca9685!.read(register: register, into: buffer)
            return
        }
        counters.imuTransactions += 1
        try imu.writeThenRead(address: address, register: register, into: buffer)
    }

    public mutating func write(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        var byte = value
        try withUnsafeBytes(of: &byte) { (raw) throws(I2CError) in
            try write(address: address, register: register, bytes: raw)
        }
    }

    public mutating func write(address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        counters.bitPeriods += 2 * 9 + 9 * bytes.count + 2
        if pca9685?.address == address {
            counters.pca9685Transactions += 1
            try pca9685!.write(register: register, bytes: bytes)
            return
        }
        counters.imuTransactions += 1
        if bytes.count == 1 {
            try imu.write(address: address, register: register, value: bytes[0])
        } else {
            try imu.write(address: address, register: register, bytes: bytes)
        }
    }

    public mutating func probe(address: UInt8) -> I2CProbeResult {
        if let chip = pca9685, chip.address == address { return chip.absent ? .absent : .present }
        return imu.probe(address: address)
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

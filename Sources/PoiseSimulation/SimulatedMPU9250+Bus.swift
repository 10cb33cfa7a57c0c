import PoiseHAL
import PoiseSensors

extension SimulatedMPU9250 {
    /// The chip's side of a transfer: a register read (the register's number, then a read),
    /// a register write (the number and one value), a block write (the number and data, one
    /// transaction), or a probe (nothing written).
    public mutating func transfer(
        address target: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        if write.isEmpty {
            guard probe(target) else {
                throw failure(.read(count: read.count, register: 0), target, .remoteIO)
            }
            for index in 0..<read.count { read[index] = 0 }
        } else if read.count > 0 {
            guard write.count == 1 else {
                throw failure(.read(count: read.count, register: write[0]), target, .invalidArgument)
            }
            try readRegisters(address: target, register: write[0], into: read)
        } else if write.count == 2 {
            try writeRegister(address: target, register: write[0], value: write[1])
        } else {
            try writeRegisters(address: target, register: write[0], bytes: UnsafeRawBufferPointer(rebasing: write[1...]))
        }
    }

    mutating func readRegisters(
        address target: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        counters.transactions += 1
        counters.reads += 1
        let operation = I2CError.Operation.read(count: buffer.count, register: register)
        if target == AK8963.address, magnetometerPresent {
            counters.magnetometerReads += 1
            magnetometer.read(register: register, into: buffer)
            return
        }
        guard target == address else { throw failure(operation, target, .remoteIO) }
        try checkFaults(operation)
        if faults.shortRead { throw failure(operation, target, .ioError) }
        // A burst: the 14 data bytes at 0x3B, alone or after INT_STATUS (0x3A).
        if register == MPU9250Register.accelXHigh.rawValue && buffer.count == 14
            || register == MPU9250Register.interruptStatus.rawValue && buffer.count == 15 { counters.burstReads += 1 }
        if register == MPU9250Register.fifoReadWrite.rawValue { counters.fifoReads += 1 }
        for offset in 0..<buffer.count {
            buffer[offset] = readByte(register == MPU9250Register.fifoReadWrite.rawValue
                ? Int(register) : Int(register) + offset)
        }
        if register <= MPU9250Register.interruptStatus.rawValue,
           Int(register) + buffer.count > Int(MPU9250Register.interruptStatus.rawValue) {
            registers[Int(MPU9250Register.interruptStatus.rawValue)] = 0  // cleared by reading
        }
        if faults.bitFlipProbability > 0, random.nextUniform() < faults.bitFlipProbability {
            let bit = Int(random.next() % UInt64(buffer.count * 8))
            buffer[bit / 8] ^= 1 << UInt8(bit % 8)
        }
    }

    mutating func writeRegister(address target: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        counters.transactions += 1
        counters.writes += 1
        let operation = I2CError.Operation.write(register: register, value: value)
        if target == AK8963.address, magnetometerPresent {
            magnetometer.write(register: register, value: value, at: time)
            return
        }
        guard target == address else { throw failure(operation, target, .remoteIO) }
        try checkFaults(operation)
        switch MPU9250Register(rawValue: register) {
        case .powerManagement1 where value & PowerManagement1.deviceReset.rawValue != 0:
            powerOnReset()
        case .userControl:
            if value & UserControl.fifoReset.rawValue != 0 {
                fifoStart = 0
                fifoCount = 0
            }
            registers[Int(register)] = value & ~0x07  // reset bits clear themselves
        case .whoAmI, .interruptStatus, .fifoCountHigh, .fifoCountLow, .fifoReadWrite:
            break  // read-only (FIFO writes are not simulated)
        default:
            if (0x3B...0x60).contains(register) { break }  // data registers are read-only
            if Int(register) < 128 { registers[Int(register)] = value }
        }
    }

    /// A block write is the single-byte writes at consecutive registers (the MPU-9250
    /// auto-increments), counted as one transaction.
    mutating func writeRegisters(address target: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        for (offset, value) in bytes.enumerated() {
            try writeRegister(address: target, register: register &+ UInt8(truncatingIfNeeded: offset), value: value)
            if offset > 0 {
                counters.transactions -= 1
                counters.writes -= 1
            }
        }
    }

    /// Whether something acknowledges at `target` (a probe: one transaction, no data).
    mutating func probe(_ target: UInt8) -> Bool {
        counters.transactions += 1
        if target == AK8963.address { return magnetometerPresent }
        return target == address && !faults.nack
    }

    var magnetometerPresent: Bool { bypassActive && !faults.magnetometerAbsent }

    func failure(_ operation: I2CError.Operation, _ target: UInt8, _ errno: Errno) -> I2CError {
        I2CError(operation, address: target, bus: path, errno: errno)
    }

    mutating func checkFaults(_ operation: I2CError.Operation) throws(I2CError) {
        if faults.failNextTransactions > 0 {
            faults.failNextTransactions -= 1
            counters.failures += 1
            throw failure(operation, address, .remoteIO)
        }
        if faults.nack {
            counters.failures += 1
            throw failure(operation, address, .remoteIO)
        }
        if faults.shortRead, case .read = operation { counters.failures += 1 }
    }

    mutating func readByte(_ index: Int) -> UInt8 {
        switch index {
        case Int(MPU9250Register.whoAmI.rawValue):
            return faults.whoAmI ?? registers[index]
        case Int(MPU9250Register.interruptStatus.rawValue):
            if faults.fifoOverflow {
                faults.fifoOverflow = false
                _ = popFIFOByte()
                return registers[index] | InterruptStatus.fifoOverflow.rawValue
            }
            return registers[index]
        case Int(MPU9250Register.fifoCountHigh.rawValue):
            return UInt8(fifoCount >> 8)
        case Int(MPU9250Register.fifoCountLow.rawValue):
            return UInt8(fifoCount & 0xFF)
        case Int(MPU9250Register.fifoReadWrite.rawValue):
            return popFIFOByte()
        case 0..<128:
            return registers[index]
        default:
            return 0
        }
    }
}

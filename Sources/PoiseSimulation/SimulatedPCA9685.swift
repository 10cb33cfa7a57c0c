import PoiseHAL
import PoiseOutputs

/// A register-level PCA9685 behind the I²C protocol, like the simulated MPU-9250: the real
/// driver runs against it unchanged (put it on a ``SimulatedI2CBus``).
///
/// Modelled: MODE1 (SLEEP, RESTART, AI), MODE2 (INVRT), PRE_SCALE writable only while
/// asleep, auto-increment, LEDn_ON/OFF with the full-on/full-off bits, ALL_LED_* loading
/// every channel. Every transaction is counted in `counters`.
public struct SimulatedPCA9685: Sendable {
    public var address: UInt8
    /// Oscillator, Hz (a real chip is a few % off 25 MHz; set it to test calibration).
    public var oscillatorHz: Double
    public internal(set) var counters = SimulatedPCA9685Counters()
    /// Answer nothing (NACK), as an unplugged board.
    public var absent = false
    var registers = InlineArray<256, UInt8>(repeating: 0)

    public init(address: UInt8 = 0x40, oscillatorHz: Double = PCA9685Timing.internalOscillatorHz) {
        self.address = address
        self.oscillatorHz = oscillatorHz
        powerOnReset()
    }

    /// Power-on values: asleep, all-call, totem pole, PRE_SCALE 0x1E (200 Hz), every channel full off.
    mutating func powerOnReset() {
        registers = InlineArray(repeating: 0)
        registers[0x00] = PCA9685Mode1.powerOn.rawValue
        registers[0x01] = PCA9685Mode2.powerOn.rawValue
        registers[0xFE] = 0x1E
        for channel in 0..<16 { registers[Int(PCA9685Timing.register(channel: channel)) + 3] = PCA9685Timing.fullBit }
        registers[0xFD] = PCA9685Timing.fullBit
    }

    /// One write transaction: `bytes` from `register`, advancing when MODE1.AI is set.
    public mutating func write(register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        counters.transactions += 1
        guard !absent else {
            throw I2CError(.writeBlock(count: bytes.count, register: register), address: address, bus: "sim", errno: .remoteIO)
        }
        counters.bytesWritten += bytes.count
        var target = register
        for value in bytes {
            store(value, at: target)
            if mode1.contains(.autoIncrement) { target &+= 1 }
        }
    }

    /// One read transaction.
    public mutating func read(register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        counters.transactions += 1
        guard !absent else {
            throw I2CError(.read(count: buffer.count, register: register), address: address, bus: "sim", errno: .remoteIO)
        }
        var target = register
        for index in 0..<buffer.count {
            buffer[index] = registers[Int(target)]
            if mode1.contains(.autoIncrement) { target &+= 1 }
        }
    }

    mutating func store(_ value: UInt8, at register: UInt8) {
        switch PCA9685Register(rawValue: register) {
        case .mode1:
            let old = mode1
            var new = PCA9685Mode1(rawValue: value)
            // RESTART reads 1 after sleeping with outputs on; writing 1 clears it and resumes.
            if new.contains(.restart) {
                new.remove(.restart)
                restartPending = false
            } else if old.contains(.restart) {
                new.insert(.restart)
            }
            if new.contains(.sleep), !old.contains(.sleep), anyChannelOn { restartPending = true }
            if restartPending { new.insert(.restart) }
            registers[0] = new.rawValue
        case .preScale:
            if mode1.contains(.sleep) {
                registers[Int(register)] = max(value, UInt8(PCA9685Timing.preScaleRange.lowerBound))
            } else {
                counters.ignoredPreScaleWrites += 1
            }
        case .allLEDOnLow, .allLEDOnHigh, .allLEDOffLow, .allLEDOffHigh:
            registers[Int(register)] = value
            let offset = Int(register) - Int(PCA9685Register.allLEDOnLow.rawValue)
            for channel in 0..<16 { registers[Int(PCA9685Timing.register(channel: channel)) + offset] = value }
            if register == PCA9685Register.allLEDOffHigh.rawValue, value & PCA9685Timing.fullBit != 0 {
                counters.allOffWrites += 1
            }
        default:
            registers[Int(register)] = value
        }
    }

    var mode1: PCA9685Mode1 { PCA9685Mode1(rawValue: registers[0]) }
    var restartPending = false

    var anyChannelOn: Bool {
        (0..<16).contains { onCounts($0).off != nil }
    }

    /// A channel's ON and OFF counts; `off == nil` when the channel is fully off.
    func onCounts(_ channel: Int) -> (on: Int, off: Int?) {
        let base = Int(PCA9685Timing.register(channel: channel))
        let onHigh = registers[base + 1], offHigh = registers[base + 3]
        if offHigh & PCA9685Timing.fullBit != 0 { return (0, nil) }
        if onHigh & PCA9685Timing.fullBit != 0 { return (0, 4096) }
        let on = Int(registers[base]) | Int(onHigh & 0x0F) << 8
        let off = Int(registers[base + 2]) | Int(offHigh & 0x0F) << 8
        return (on, off)
    }
}

/// Transactions seen by a ``SimulatedPCA9685``.
public struct SimulatedPCA9685Counters: Sendable, Equatable {
    /// Read and write transactions.
    public var transactions = 0
    /// Data bytes written (register bytes not counted).
    public var bytesWritten = 0
    /// PRE_SCALE writes ignored because the chip was awake.
    public var ignoredPreScaleWrites = 0
    /// ALL_LED_OFF_H writes with the full-off bit.
    public var allOffWrites = 0
    public init() {}
}

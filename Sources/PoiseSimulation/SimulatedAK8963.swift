import PoiseSensors
/// The AK8963's register file and measurement timing, driven by the simulated MPU-9250.
///
/// Honours CNTL1 modes (power-down, single, continuous 8/100 Hz, fuse ROM), BIT (14/16-bit),
/// CNTL2 soft reset, ST1 DRDY/DOR and ST2 HOFL, and the data lock: once a read touches the
/// data registers, no new measurement lands until ST2 has been read.
struct SimulatedAK8963: Sendable {
    var control1: UInt8 = 0
    var status1: UInt8 = 0
    var status2: UInt8 = 0
    var data = InlineArray<6, UInt8>(repeating: 0)
    var asa: SIMD3<UInt8>
    /// A read touched the data registers and has not read ST2 yet.
    var locked = false
    /// When the current mode started, and the index of the last measurement in it.
    var modeStart: Double = 0
    var lastMeasurement: Int64 = 0
    var singlePending = false

    init(asa: SIMD3<UInt8>) { self.asa = asa }

    var mode: UInt8 { control1 & 0x0F }
    var sixteenBit: Bool { control1 & 0x10 != 0 }

    /// Measurements per second in the current mode.
    var rate: Double {
        switch mode {
        case 0x02: 8
        case 0x06: 100
        default: 0
        }
    }

    mutating func write(register: UInt8, value: UInt8, at time: Double) {
        switch register {
        case AK8963Register.control1.rawValue:
            control1 = value & 0x1F
            modeStart = time
            lastMeasurement = 0
            singlePending = mode == 0x01
        case AK8963Register.control2.rawValue where value & 0x01 != 0:
            self = SimulatedAK8963(asa: asa)
        default:
            break
        }
    }

    /// The measurement times in (from, to]; `measure` supplies the field in µT, AK frame.
    mutating func advance(from: Double, to time: Double, silent: Bool, measure: (Double) -> SIMD3<Float>) {
        guard !silent else { return }
        if singlePending {
            singlePending = false
            store(measure(time))
            control1 &= 0x10  // single measurement returns to power-down
            return
        }
        guard rate > 0 else { return }
        let index = Int64(((time - modeStart) * rate).rounded(.down))
        guard index > lastMeasurement else { return }
        lastMeasurement = index
        store(measure(modeStart + Double(index) / rate))
    }

    mutating func store(_ field: SIMD3<Float>) {
        if locked || status1 & 0x01 != 0 {
            status1 |= 0x02  // DOR: a measurement was skipped or overwrote unread data
            if locked { return }
        }
        let lsb = sixteenBit ? AK8963.microteslaPerLSB16 : AK8963.microteslaPerLSB14
        let adjustment = (SIMD3<Float>(Float(asa.x), Float(asa.y), Float(asa.z)) - 128) / 256 + 1
        let limit: Float = sixteenBit ? 32760 : 8190
        let raw = field / (lsb * adjustment)
        let overflow = max(abs(field.x), abs(field.y), abs(field.z)) > 4912
        for axis in 0..<3 {
            let value = Int16(max(-limit, min(limit, raw[axis].rounded())))
            let bits = UInt16(bitPattern: value)
            data[2 * axis] = UInt8(bits & 0xFF)
            data[2 * axis + 1] = UInt8(bits >> 8)
        }
        status2 = (sixteenBit ? 0x10 : 0) | (overflow ? 0x08 : 0)
        status1 |= 0x01
    }

    /// A read of `count` bytes from `register`; the address auto-increments.
    mutating func read(register: UInt8, into buffer: UnsafeMutableRawBufferPointer) {
        let fuseMode = mode == 0x0F
        for offset in 0..<buffer.count {
            let address = Int(register) + offset
            let value: UInt8
            switch address {
            case 0x00: value = AK8963.deviceID
            case 0x01: value = 0x9A
            case 0x02: value = status1
            case 0x03...0x08:
                value = data[address - 3]
                locked = true
            case 0x09:
                value = status2
                locked = false
                status1 = 0
            case 0x0A: value = control1
            case 0x10: value = fuseMode ? asa.x : 0
            case 0x11: value = fuseMode ? asa.y : 0
            case 0x12: value = fuseMode ? asa.z : 0
            default: value = 0
            }
            buffer[offset] = value
        }
    }
}

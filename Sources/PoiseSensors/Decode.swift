import PoiseDeviceSettings
import PoiseMath
// Decoding the 14-byte accel/temp/gyro burst and the 8-byte magnetometer read: the real-time path. No allocation, no
// existentials; checked with `swift build -c release --target PoiseSensors`.

/// The 14 bytes read from ACCEL_XOUT_H (0x3B): accel x y z, temperature, gyro x y z,
/// each big-endian signed 16-bit. FIFO frames have the same layout.
public typealias MPU9250Burst = InlineArray<14, UInt8>


/// Scale factors and axis mapping for the decode, computed once from the settings.
@frozen
public struct InertialScale: Sendable, Equatable {
    /// m/s² per LSB.
    public var accelerometer: Float
    /// rad/s per LSB.
    public var gyroscope: Float
    /// Chip-to-body mapping.
    public var mounting: Mounting
    /// LSB per °C and the temperature at raw 0: 333.87 and 21 °C for the MPU-9250/6500
    /// family, 340 and 36.53 °C for the MPU-6050.
    public var temperatureSensitivity: Float = 333.87
    public var temperatureOffset: Float = 21

    public init(accelerometerRange: MPU9250Settings.AccelerometerRange,
                gyroscopeRange: MPU9250Settings.GyroscopeRange, mounting: Mounting) {
        accelerometer = accelerometerRange.g * Gravity.standard / 32768
        gyroscope = gyroscopeRange.degreesPerSecond * (Float.pi / 180) / 32768
        self.mounting = mounting
    }

    public init(settings: MPU9250Settings) {
        self.init(accelerometerRange: settings.accelerometerRange,
                  gyroscopeRange: settings.gyroscopeRange, mounting: settings.mounting)
    }
}

/// One decoded accel/gyro/temperature sample in body axes and SI units.
@frozen
public struct InertialReading: Sendable, Equatable {
    /// Specific force, m/s², body frame.
    public var accelerometer: SIMD3<Float>
    /// Angular rate, rad/s, body frame.
    public var gyroscope: SIMD3<Float>
    /// Die temperature, °C.
    public var temperature: Float
    /// An accel or gyro axis sat at the end of its range.
    public var saturated: Bool
    /// A gyroscope axis read within 16 counts of either end of its range
    /// (whatever `gyro_range` is configured): the rate may have been larger, and the attitude
    /// integrated from it may be wrong by any amount.
    public var gyroscopeClipped: Bool

    @inlinable
    public init(accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, temperature: Float, saturated: Bool,
                gyroscopeClipped: Bool = false) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.temperature = temperature
        self.saturated = saturated
        self.gyroscopeClipped = gyroscopeClipped
    }
}

/// Big-endian signed 16-bit value at `index` of the burst, as a Float.
@inlinable @inline(__always)
func bigEndianInt16(_ bytes: borrowing MPU9250Burst, _ index: Int) -> Float {
    Float(Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])))
}

/// Decodes a 0x3B burst (or FIFO frame): unit conversion, temperature
/// (raw / 333.87 + 21 °C on the MPU-9250) and the chip-to-body mapping.
@inlinable @_noAllocation @_noLocks
public func decodeInertialBurst(_ bytes: borrowing MPU9250Burst, scale: InertialScale) -> InertialReading {
    let accel = SIMD3(bigEndianInt16(bytes, 0), bigEndianInt16(bytes, 2), bigEndianInt16(bytes, 4))
    let temperatureRaw = bigEndianInt16(bytes, 6)
    let gyro = SIMD3(bigEndianInt16(bytes, 8), bigEndianInt16(bytes, 10), bigEndianInt16(bytes, 12))
    // A reading at either end of the 16-bit range means the true value may be larger.
    let low = SIMD3<Float>(repeating: -32767), high = SIMD3<Float>(repeating: 32767)
    let saturated = any((accel .<= low) .| (accel .>= high) .| (gyro .<= low) .| (gyro .>= high))
    // Clipping is judged a few counts inside the ends: a rate beyond the range reads the end
    // value plus the chip's noise, which may pull it just inside.
    // 16 counts: 0.05 % of full scale (0.1 °/s at ±250 °/s, 1 °/s at ±2000 °/s).
    let clip = SIMD3<Float>(repeating: 32767 - 16)
    let clipped = any((gyro .<= -clip) .| (gyro .>= clip))
    return InertialReading(
        accelerometer: mapChipToBody(accel * scale.accelerometer, scale.mounting),
        gyroscope: mapChipToBody(gyro * scale.gyroscope, scale.mounting),
        temperature: temperatureRaw / scale.temperatureSensitivity + scale.temperatureOffset,
        saturated: saturated, gyroscopeClipped: clipped)
}


// Decoding one AK8963 read (ST1, HXL…HZH, ST2).

/// The 8 bytes read from ST1 (0x02) to ST2 (0x09) in one transaction.
public typealias AK8963Read = InlineArray<8, UInt8>

/// Sensitivity and axis mapping for the magnetometer decode.
@frozen
public struct MagnetometerScale: Sendable, Equatable {
    /// µT per LSB along the AK8963's own x, y, z, including the fuse-ROM adjustment.
    public var sensitivity: SIMD3<Float>
    /// Chip (MPU accel/gyro frame) to body mapping.
    public var mounting: Mounting

    /// From the fuse-ROM ASA bytes: adjusted = raw · ((ASA − 128) / 256 + 1).
    @inlinable  // the loop's checked re-initialisation in another module sets the AK8963 up
    public init(asa: SIMD3<UInt8>, mounting: Mounting, microteslaPerLSB: Float = AK8963.microteslaPerLSB16) {
        let adjustment = (SIMD3<Float>(Float(asa.x), Float(asa.y), Float(asa.z)) - 128) / 256 + 1
        sensitivity = adjustment * microteslaPerLSB
        self.mounting = mounting
    }
}

/// The outcome of one magnetometer read.
@frozen
public enum MagnetometerDecode: Sendable, Equatable {
    /// DRDY was clear: no new measurement since the last read.
    case notReady
    /// HOFL was set: the field exceeded the range and the data is invalid.
    case overflow
    /// A new field, µT, body frame.
    case field(SIMD3<Float>)
}

/// Little-endian signed 16-bit value at `index`.
@inlinable @inline(__always)
func littleEndianInt16(_ bytes: borrowing AK8963Read, _ index: Int) -> Float {
    Float(Int16(bitPattern: UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])))
}

/// Decodes an ST1…ST2 read. The AK8963's axes differ from the MPU's: its x is the MPU's y,
/// its y the MPU's x, and its z points the other way.
@inlinable @_noAllocation @_noLocks
public func decodeMagnetometer(_ bytes: borrowing AK8963Read, scale: MagnetometerScale) -> MagnetometerDecode {
    guard bytes[0] & 0x01 != 0 else { return .notReady }  // ST1 DRDY
    guard bytes[7] & 0x08 == 0 else { return .overflow }  // ST2 HOFL
    let raw = SIMD3(littleEndianInt16(bytes, 1), littleEndianInt16(bytes, 3), littleEndianInt16(bytes, 5))
    let akFrame = raw * scale.sensitivity
    let chipFrame = SIMD3(akFrame.y, akFrame.x, -akFrame.z)
    return .field(mapChipToBody(chipFrame, scale.mounting))
}

/// `mounting.chipToBody(v)`. Lives in this file because the performance checker of a debug
/// (per-file) build cannot see bodies in other files of the module.
@inlinable @inline(__always)
public func mapChipToBody(_ v: SIMD3<Float>, _ mounting: Mounting) -> SIMD3<Float> {
    let a = mounting.column0 * v.x
    let b = mounting.column1 * v.y
    return a + b + mounting.column2 * v.z
}

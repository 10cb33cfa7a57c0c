import PoiseDeviceSettings
@testable import PoiseSensors
import PoiseFlightCore
import PoiseHAL
import Testing

// The typed faults word themselves as the driver's messages always have (the CLI prints them).

private let nack = I2CError(.read(count: 1, register: 0x75), address: 0x68, bus: "/dev/i2c-1", errno: .remoteIO)

@Test func startFaultsReadAsBefore() throws {
    let clock = try #require(MPU9250Settings().configurationTable.first)
    let failedWrite = I2CError(.write(register: 0x6B, value: 0x01), address: 0x68, bus: "/dev/i2c-1", errno: .ioError)
    #expect(MPU9250Error.reset(failedWrite).description
        == "reset failed: write 0x01 to 0x6B of 0x68 on /dev/i2c-1: Input/output error (EIO)")
    #expect(MPU9250Error.noAnswer(nack).description
        == "no answer at 0x68 on /dev/i2c-1: read 1 byte at 0x75 from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)")
    #expect(MPU9250Error.configurationWrite(clock, failedWrite).description
        == "configuring clock: PLL, awake: write 0x01 to 0x6B of 0x68 on /dev/i2c-1: Input/output error (EIO)")
    #expect(MPU9250Error.failedReads(count: 3, errno: .remoteIO).description
        == "sensor lost: 3 consecutive failed reads: Remote I/O error (EREMOTEIO)")
}

@Test func magnetometerFaultsReadAsBefore() {
    let absent = I2CError(.read(count: 1, register: 0x00), address: 0x0C, bus: "/dev/i2c-1", errno: .remoteIO)
    #expect(AK8963Error.noAnswer(absent).description
        == "no AK8963 answered at 0x0C (read 1 byte at 0x00 from 0x0C on /dev/i2c-1: Remote I/O error (EREMOTEIO))")
    #expect(AK8963Error.deviceID(0x00).description == "the device at 0x0C answered WIA 0x00, not an AK8963 (0x48)")
}

@Test func lossNoticesStandForTheirTypedFaults() {
    var notices = SensorNotices()
    notices.kinds = .lostAfterFailedReads
    notices.failures = 10
    notices.errno = 121
    #expect(notices.driverFault == .failedReads(count: 10, errno: .remoteIO))
    notices.kinds = .magnetometerSilent
    #expect(notices.magnetometerFault == .silent(reads: 10))
    #expect(notices.driverFault == nil)
}

import PoiseHAL
import Testing

/// A bus where only the given addresses answer.
private struct FakeBus: I2CBus {
    var path = "/dev/i2c-fake"
    var functionality: I2CFunctionality = [.plainI2C]
    var present: Set<UInt8>
    var busy: Set<UInt8> = []

    mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        let operation = I2CError.Operation(writing: write, reading: read.count)
        if busy.contains(address) { throw I2CError(.selectAddress, address: address, bus: path, errno: .resourceBusy) }
        guard present.contains(address) else { throw I2CError(operation, address: address, bus: path, errno: .remoteIO) }
        let register = write.first ?? 0
        for i in 0..<read.count { read[i] = register &+ UInt8(i) }
    }
}

@Test func scanGridLooksLikeI2CDetect() {
    var bus = FakeBus(present: [0x0C, 0x68], busy: [0x3C])
    let scan = I2CScan(bus: &bus)
    #expect(scan.present == [0x0C, 0x68])
    #expect(scan.grid == """
             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f
        00:          -- -- -- -- -- -- -- -- -- 0c -- -- --
        10: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --
        20: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --
        30: -- -- -- -- -- -- -- -- -- -- -- -- UU -- -- --
        40: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --
        50: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --
        60: -- -- -- -- -- -- -- -- 68 -- -- -- -- -- -- --
        70: -- -- -- -- -- -- -- --
        """)
}

@Test func readRegisterGoesThroughWriteThenRead() throws {
    var bus = FakeBus(present: [0x68])
    #expect(try bus.readRegister(address: 0x68, register: 0x75) == 0x75)
    let error = #expect(throws: I2CError.self) { _ = try bus.readRegister(address: 0x69, register: 0x75) }
    #expect(error?.description == "read 1 byte at 0x75 from 0x69 on /dev/i2c-fake: Remote I/O error (EREMOTEIO)")
    #expect(error?.setupHint?.contains("AD0") == true)
}

@Test func openErrorsCarrySetupHints() {
    let missing = I2CError(.open, address: nil, bus: "/dev/i2c-1", errno: .noSuchFileOrDirectory)
    #expect(missing.setupHint?.contains("dtparam=i2c_arm=on") == true)
    #expect(missing.setupHint?.contains("sudo modprobe i2c-dev") == true)
    let denied = I2CError(.open, address: nil, bus: "/dev/i2c-1", errno: .permissionDenied)
    #expect(denied.setupHint?.contains("i2c group") == true)
}

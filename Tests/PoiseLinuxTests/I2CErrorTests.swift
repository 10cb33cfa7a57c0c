import PoiseHAL
import PoiseLinux
import Testing

@Test func readErrorNamesOperationRegisterAddressAndBus() {
    let error = I2CError(.read(count: 14, register: 0x3B), address: 0x68, bus: "/dev/i2c-1", errno: .remoteIO)
    #expect(error.description == "read 14 bytes at 0x3B from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)")
}

@Test func writeAndOpenErrorsReadAsSentences() {
    let write = I2CError(.write(register: 0x6B, value: 0x80), address: 0x68, bus: "/dev/i2c-1", errno: .ioError)
    #expect(write.description == "write 0x80 to 0x6B of 0x68 on /dev/i2c-1: Input/output error (EIO)")
    let open = I2CError(.open, address: nil, bus: "/dev/i2c-9", errno: .noSuchFileOrDirectory)
    #expect(open.description == "open /dev/i2c-9: No such file or directory (ENOENT)")
}

@Test func openingAMissingBusThrowsENOENT() {
    #expect(throws: I2CError(.open, address: nil, bus: "/dev/i2c-nonexistent-77", errno: .noSuchFileOrDirectory)) {
        _ = try LinuxI2CBus(path: "/dev/i2c-nonexistent-77")
    }
}

@Test func functionalityListsNamedBits() {
    let functionality: I2CFunctionality = [.plainI2C, .smbusReadI2CBlock]
    #expect(functionality.description == "I2C, SMBus I2C block read")
    #expect(I2CFunctionality().description == "none")
}

@Test func aFileThatIsNotAnI2CBusIsRejectedAtTheFunctionalityQuery() {
    let error = #expect(throws: I2CError.self) { _ = try LinuxI2CBus(path: "/dev/null") }
    #expect(error?.description == "query functionality of /dev/null: Inappropriate ioctl for device (ENOTTY)")
}

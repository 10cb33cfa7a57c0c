import PoiseHAL
import PoiseLinux
import Testing

// The real `LinuxI2CBus` over a mocked kernel: each test checks the exact system calls a
// transfer makes (what an i2c-dev adapter on a Raspberry Pi sees) and what a forced errno
// turns into.

/// `O_RDWR | O_CLOEXEC` on Linux.
private let readWriteCloseOnExec = 0o2_000_002

/// A kernel whose adapter reports `functionality` and answers every other call with `answer`.
private func kernel(
    _ functionality: I2CFunctionality,
    answer: @escaping (SyscallMock.Call) -> SyscallMock.Reply = { _ in .success }
) -> SyscallMock {
    SyscallMock { call in
        call.arguments.dropFirst().first == "I2C_FUNCS" ? .returns(Int(functionality.rawValue)) : answer(call)
    }
}

/// The calls that open a bus: open, then the functionality query.
private let opening: [SyscallMock.Call] = [
    .init("open", "/dev/i2c-1", .int(readWriteCloseOnExec)),
    .init("ioctl", 100, "I2C_FUNCS"),
]

private func read(_ bus: inout LinuxI2CBus, address: UInt8, register: UInt8, count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    try bytes.withUnsafeMutableBytes { buffer in
        try bus.writeThenRead(address: address, register: register, into: buffer)
    }
    return bytes
}

@Test func aRegisterReadIsOneI2CRDWRWriteThenReadWithARepeatedStart() throws {
    let burst: [UInt8] = Array(1...14)
    let mock = kernel(.plainI2C) { call in call.arguments.dropFirst().first == "I2C_RDWR" ? .reads(burst) : .success }
    let data = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        defer { bus.close() }
        return try read(&bus, address: 0x68, register: 0x3B, count: 14)
    }
    #expect(data == burst)
    #expect(mock.calls == opening + [
        .init("ioctl", 100, "I2C_RDWR", .messages([.write(0x68, [0x3B]), .read(0x68, 14)])),
        .init("close", 100),
    ])
}

@Test func theTickBlockReadMakesTheSameTransfer() throws {
    let mock = kernel(.plainI2C) { call in call.arguments.dropFirst().first == "I2C_RDWR" ? .reads([7, 8, 9]) : .success }
    var block = I2CBlock()
    block.count = 3
    try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        try bus.read(address: 0x0C, register: 0x02, into: &block)
    }
    #expect(block.bytes[0] == 7 && block.bytes[2] == 9)
    #expect(Array(mock.calls.dropFirst(2)) == [
        .init("ioctl", 100, "I2C_RDWR", .messages([.write(0x0C, [0x02]), .read(0x0C, 3)])),
    ])
}

@Test func registerAndBlockWritesAreOneI2CRDWRMessageWithoutI2CSlave() throws {
    let mock = kernel(.plainI2C)
    try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        try bus.write(address: 0x68, register: 0x6B, value: 0x80)
        var block = I2CBlock()
        for byte: UInt8 in [0, 0x10, 0, 0] { block.append(byte) }
        try bus.write(address: 0x40, register: 0xFA, block: block)
    }
    #expect(Array(mock.calls.dropFirst(2)) == [
        .init("ioctl", 100, "I2C_RDWR", .messages([.write(0x68, [0x6B, 0x80])])),
        .init("ioctl", 100, "I2C_RDWR", .messages([.write(0x40, [0xFA, 0, 0x10, 0, 0])])),
    ])
}

@Test func withoutPlainI2CTheBusSelectsTheAddressOnceThenUsesSMBus() throws {
    let mock = kernel([.smbusReadI2CBlock, .smbusWriteByteData, .smbusWriteI2CBlock])
    try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        _ = try read(&bus, address: 0x68, register: 0x3B, count: 14)
        try bus.write(address: 0x68, register: 0x6B, value: 0x01)
        _ = try read(&bus, address: 0x0C, register: 0x02, count: 8)
        let forty = [UInt8](repeating: 0xAA, count: 40)
        try forty.withUnsafeBytes { bytes in try bus.write(address: 0x40, register: 0x06, bytes: bytes) }
    }
    #expect(Array(mock.calls.dropFirst(2)) == [
        .init("ioctl", 100, "I2C_SLAVE", 0x68),
        .init("i2c_smbus_read_i2c_block_data", 100, 0x3B, 14),
        .init("i2c_smbus_write_byte_data", 100, 0x6B, 0x01),
        .init("ioctl", 100, "I2C_SLAVE", 0x0C),
        .init("i2c_smbus_read_i2c_block_data", 100, 0x02, 8),
        .init("ioctl", 100, "I2C_SLAVE", 0x40),
        // 40 bytes as SMBus blocks of 32 and 8 at consecutive registers.
        .init("i2c_smbus_write_i2c_block_data", 100, 0x06, .bytes(.init(repeating: 0xAA, count: 32))),
        .init("i2c_smbus_write_i2c_block_data", 100, 0x26, .bytes(.init(repeating: 0xAA, count: 8))),
    ])
}

@Test(arguments: [Errno.remoteIO, Errno(rawValue: 6) /* ENXIO */, .resourceTemporarilyUnavailable, .timedOut])
func aFailedTransferThrowsItsTypedError(errno: Errno) throws {
    let mock = kernel(.plainI2C) { call in call.arguments.dropFirst().first == "I2C_RDWR" ? .failure(errno) : .success }
    let error = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        return #expect(throws: I2CError.self) { _ = try read(&bus, address: 0x68, register: 0x3B, count: 14) }
    }
    #expect(error == I2CError(.read(count: 14, register: 0x3B), address: 0x68, bus: "/dev/i2c-1", errno: errno))
    // Not retried by the bus: the driver's retry policy decides.
    #expect(mock.calls(named: "ioctl").count == 2)
}

@Test func anInterruptedTransferIsRetriedInTheSyscallLayer() throws {
    var interruptions = 2
    let mock = kernel(.plainI2C) { call in
        guard call.arguments.dropFirst().first == "I2C_RDWR" else { return .success }
        if interruptions > 0 { interruptions -= 1; return .failure(.interrupted) }
        return .reads([0x71])
    }
    let whoAmI = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        return try bus.readRegister(address: 0x68, register: 0x75)
    }
    #expect(whoAmI == 0x71)
    let transfer = SyscallMock.Call("ioctl", 100, "I2C_RDWR", .messages([.write(0x68, [0x75]), .read(0x68, 1)]))
    #expect(Array(mock.calls.dropFirst(2)) == [transfer, transfer, transfer])
}

@Test func aTransferThatStopsPartWayIsAnIOError() throws {
    // The kernel moved the write message but not the read.
    let mock = kernel(.plainI2C) { call in call.arguments.dropFirst().first == "I2C_RDWR" ? .returns(1) : .success }
    let error = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        return #expect(throws: I2CError.self) { _ = try read(&bus, address: 0x68, register: 0x3B, count: 14) }
    }
    #expect(error?.errno == .ioError)
}

@Test func aRefusedAddressSelectionNamesIt() throws {
    let mock = kernel(.smbusReadI2CBlock) { call in
        call.arguments.dropFirst().first == "I2C_SLAVE" ? .failure(.resourceBusy) : .success
    }
    let error = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        return #expect(throws: I2CError.self) { _ = try read(&bus, address: 0x68, register: 0x3B, count: 14) }
    }
    #expect(error == I2CError(.selectAddress, address: 0x68, bus: "/dev/i2c-1", errno: .resourceBusy))
    #expect(mock.calls(named: "i2c_smbus_read_i2c_block_data").isEmpty)
}

@Test func openingFailuresCloseWhatWasOpened() {
    let denied = SyscallMock { call in call.name == "open" ? .failure(.permissionDenied) : .success }
    denied.run {
        #expect(throws: I2CError(.open, address: nil, bus: "/dev/i2c-1", errno: .permissionDenied)) {
            _ = try LinuxI2CBus(path: "/dev/i2c-1")
        }
    }
    #expect(denied.calls == [opening[0]])
    let notABus = SyscallMock { call in call.name == "ioctl" ? .failure(.inappropriateIOCTLForDevice) : .success }
    notABus.run {
        #expect(throws: I2CError(.queryFunctionality, address: nil, bus: "/dev/i2c-1", errno: .inappropriateIOCTLForDevice)) {
            _ = try LinuxI2CBus(path: "/dev/i2c-1")
        }
    }
    #expect(notABus.calls == opening + [.init("close", 100)])
}

@Test func probingAsksLikeI2CDetect() throws {
    let mock = kernel([.plainI2C, .smbusQuick, .smbusReadByte]) { call in
        if call.name == "ioctl", call.arguments.last == 0x3C { return .failure(.resourceBusy) }
        return call.name == "i2c_smbus_write_quick" ? .failure(.remoteIO) : .success
    }
    let results = try mock.run {
        var bus = try LinuxI2CBus(path: "/dev/i2c-1")
        return [bus.probe(address: 0x3C), bus.probe(address: 0x68), bus.probe(address: 0x50)]
    }
    #expect(results == [.busy, .absent, .present])
    #expect(Array(mock.calls.dropFirst(2)) == [
        .init("ioctl", 100, "I2C_SLAVE", 0x3C),
        .init("ioctl", 100, "I2C_SLAVE", 0x68),
        .init("i2c_smbus_write_quick", 100, 0),
        // EEPROM range: a receive byte, never a quick write.
        .init("ioctl", 100, "I2C_SLAVE", 0x50),
        .init("i2c_smbus_read_byte", 100),
    ])
}

@Test func i2cErrorIsPlainData() {
    #expect(_isPOD(I2CError.self))
    let error = I2CError(.read(count: 1, register: 0x75), address: 0x68,
                         bus: "/dev/i2c-with-a-rather-long-name-indeed", errno: .remoteIO)
    #expect(error.bus.description == "/dev/i2c-with-a-rather-long-name")
}

import PoiseDeviceSettings
import PoiseHAL
import PoiseLinux
import PoiseMath
import PoiseMotion
@testable import PoiseSensors
import PoiseSimulation
import Testing
import PoiseLogging

// The real MPU-9250 driver on the real `LinuxI2CBus`, over a mocked i2c-dev whose I2C_RDWR
// transfers reach a simulated chip's registers: the path a Raspberry Pi takes, checked
// system call by system call.

/// A simulated MPU-9250 behind i2c-dev: answers `I2C_RDWR` from its registers and forces
/// errnos on the burst reads (INT_STATUS at 0x3A, then the data) when told to.
final class ChipBehindI2CDev {
    var chip = SimulatedMPU9250(motion: StaticPose(), errors: SensorErrorModel(
        gyroscopeNoiseDensity: 0, accelerometerNoiseDensity: 0, magnetometerNoise: 0,
        magnetometerASA: SIMD3(128, 128, 128), seed: 42))
    /// Errnos for the next burst transfers, in order (then they succeed).
    var burstErrnos: [Errno] = []
    /// Single-register reads that answer this value instead of the chip's.
    var readOverrides: [UInt8: UInt8] = [:]

    func answer(_ call: SyscallMock.Call) -> SyscallMock.Reply {
        if call.arguments.dropFirst().first == "I2C_FUNCS" {
            return .returns(Int(I2CFunctionality([.plainI2C, .smbusQuick]).rawValue))
        }
        guard call.arguments.count == 3, case .messages(let messages) = call.arguments[2] else { return .success }
        let target = UInt8(messages[0].address)
        let register = messages[0].written[0]
        do {
            if messages.count == 2 {
                if register == 0x3A, !burstErrnos.isEmpty { return .failure(burstErrnos.removeFirst()) }
                var data = [UInt8](repeating: 0, count: messages[1].length)
                try data.withUnsafeMutableBytes { buffer in
                    try chip.writeThenRead(address: target, register: register, into: buffer)
                }
                if data.count == 1, let value = readOverrides[register] { data[0] = value }
                return .reads(data)
            }
            let bytes = messages[0].written.dropFirst()
            try Array(bytes).withUnsafeBytes { buffer in
                try chip.write(address: target, register: register, bytes: buffer)
            }
            return .success
        } catch {
            return .failure((error as? I2CError)?.errno ?? .ioError)
        }
    }
}

/// A driver on `/dev/i2c-1` (mocked), ticked at 100 Hz with the chip's time following.
struct DriverOverI2CDev {
    let board: ChipBehindI2CDev
    let mock: SyscallMock
    var driver: MPU9250<LinuxI2CBus>
    var clock = 0

    init(settings: MPU9250Settings = testSettings()) throws {
        let board = ChipBehindI2CDev()
        self.board = board
        mock = SyscallMock { board.answer($0) }
        driver = try mock.run { MPU9250(bus: try LinuxI2CBus(path: "/dev/i2c-1"), settings: settings, logger: DriverLog(quiet)) }
    }

    /// Runs one checked loop tick; returns it and the system calls it made.
    mutating func tick() -> (DriverTick, [SyscallMock.Call]) {
        clock += 1
        board.chip.advance(to: Double(clock) / driver.settings.tickRate)
        let before = mock.calls.count
        let result = mock.run { driver.checkedLoopTick() }
        return (result, Array(mock.calls[before...]))
    }

    mutating func start() {
        for _ in 0..<12 { _ = tick() }
    }
}

private func rdwr(_ messages: I2CMessageRecord...) -> SyscallMock.Call {
    SyscallMock.Call("ioctl", 100, "I2C_RDWR", .messages(messages))
}

private let burst = rdwr(.write(0x68, [0x3A]), .read(0x68, 15))

@Test func startUpIsResetIdentifyConfigureVerifyThenTheMagnetometer() throws {
    let settings = testSettings()
    var rig = try DriverOverI2CDev(settings: settings)
    rig.start()
    #expect(rig.driver.state == .running)
    #expect(rig.driver.model == .mpu9250)
    #expect(rig.driver.hasMagnetometer)
    let table = settings.configurationTable
    let ak: UInt16 = 0x0C
    let control = AK8963Register.control1.rawValue
    var expected = [SyscallMock.Call("open", "/dev/i2c-1", .int(0o2_000_002)), .init("ioctl", 100, "I2C_FUNCS")]
    expected.append(rdwr(.write(0x68, [0x6B, 0x80])))
    expected.append(rdwr(.write(0x68, [0x75]), .read(0x68, 1)))
    expected += table.map { rdwr(.write(0x68, [$0.register.rawValue, $0.value])) }
    expected += table.map { rdwr(.write(0x68, [$0.register.rawValue]), .read(0x68, 1)) }
    expected += [
        rdwr(.write(ak, [0x00]), .read(ak, 1)),
        rdwr(.write(ak, [control, AK8963Mode.powerDown.rawValue])),
        rdwr(.write(ak, [control, AK8963Mode.fuseROMAccess.rawValue])),
        rdwr(.write(ak, [AK8963Register.sensitivityX.rawValue]), .read(ak, 3)),
        rdwr(.write(ak, [control, AK8963Mode.powerDown.rawValue])),
        rdwr(.write(ak, [0x00]), .read(ak, 1)),
        rdwr(.write(ak, [control, settings.magnetometerMode.rawValue])),
    ]
    #expect(Array(rig.mock.calls.prefix(expected.count)) == expected)
}

private func checked(_ register: UInt8) -> SyscallMock.Call { rdwr(.write(0x68, [register]), .read(0x68, 1)) }

@Test func aRunningTickIsOneBurstOneCheckedRegisterAndTheMagnetometerWhenDue() throws {
    let settings = testSettings { $0.magnetometerInterval = 2 }
    var rig = try DriverOverI2CDev(settings: settings)
    rig.start()
    let (first, firstCalls) = rig.tick()
    let (second, secondCalls) = rig.tick()
    #expect(first.sample != nil && second.sample != nil)
    let magnetometer = rdwr(.write(0x0C, [AK8963Register.status1.rawValue]), .read(0x0C, 8))
    // Every tick starts with the burst and one configuration register read back; one tick
    // in two adds the AK8963's ST1…ST2.
    let registers = settings.configurationTable.map(\.register.rawValue)
    let shortest = [firstCalls, secondCalls].sorted { $0.count < $1.count }
    #expect(shortest[0].count == 2 && shortest[1].count == 3 && shortest[1].last == magnetometer)
    #expect(firstCalls[0] == burst && secondCalls[0] == burst)
    #expect(registers.contains { firstCalls[1] == checked($0) })
    #expect(abs((second.sample?.accelerometer.z ?? 0) - Float(Gravity.standard)) < 0.01)
    // Round-robin: one round of ticks reads every register of the configuration table once.
    var read: [UInt8] = []
    for _ in registers {
        let (_, calls) = rig.tick()
        read += registers.filter { calls.contains(checked($0)) }
    }
    #expect(read.sorted() == registers.sorted())
}

/// A brown-out: the chip resets itself to its power-on values mid-run. Within one round of
/// the checked registers the driver finds one changed, gives no sample in that tick, reports
/// the register with its configured and read values (a typed fault), and re-configures.
@Test func aChipThatResetsItselfIsFoundWithinOneRoundAndReconfigured() throws {
    let settings = testSettings()
    var rig = try DriverOverI2CDev(settings: settings)
    rig.start()
    _ = rig.tick()
    rig.board.chip.powerOnReset()
    let table = settings.configurationTable
    var found: (tick: DriverTick, calls: [SyscallMock.Call])? = nil
    for _ in table {
        let (tick, calls) = rig.tick()
        if tick.notices.kinds.contains(.chipReset) { found = (tick, calls); break }
    }
    let (tick, calls) = try #require(found)
    #expect(tick.sample == nil)
    #expect(tick.state == .lost)
    #expect(calls.prefix(2) == [burst, checked(tick.notices.register)])
    let setting = try #require(table.first { $0.register.rawValue == tick.notices.register })
    #expect(tick.notices.expected == setting.value & setting.mask)
    #expect(tick.notices.found & setting.mask != setting.value & setting.mask)
    #expect(rig.driver.fault == .chipReset(register: setting.register.rawValue, expected: tick.notices.expected,
                                           read: tick.notices.found))
    let message = try #require(settings.messages(for: tick.notices).first)
    #expect(message.error)
    #expect(message.text.hasPrefix("chip reset: \(setting.register.datasheetName) (0x"))
    #expect(message.text.contains("(\(setting.purpose))"))
    #expect(rig.driver.counters.chipResets == 1)
    // Re-configured after the re-initialisation interval (1 s = 100 ticks), then samples again.
    var recovered = false
    for _ in 0..<150 where !recovered {
        let (next, _) = rig.tick()
        recovered = next.sample != nil
    }
    #expect(recovered)
    #expect(rig.driver.state == .running)
    #expect(rig.driver.counters.reinitSuccesses == 1)
    #expect(rig.driver.fault == nil)
}

@Test(arguments: [Errno.remoteIO, Errno(rawValue: 6) /* ENXIO */, .resourceTemporarilyUnavailable])
func aFailedBurstIsRetriedByTheDriverWithinTheTick(errno: Errno) throws {
    var rig = try DriverOverI2CDev()
    rig.start()
    rig.board.burstErrnos = [errno]
    let (tick, calls) = rig.tick()
    #expect(tick.sample != nil)
    #expect(calls.prefix(2) == [burst, burst])
    #expect(rig.driver.counters.readFailures == 1)
    #expect(rig.driver.counters.recoveredByRetry == 1)
}

@Test func anInterruptedBurstIsRetriedByTheSyscallLayerNotCountedAsAFailure() throws {
    var rig = try DriverOverI2CDev()
    rig.start()
    rig.board.burstErrnos = [.interrupted]
    let (tick, calls) = rig.tick()
    #expect(tick.sample != nil)
    #expect(calls.prefix(2) == [burst, burst])
    #expect(rig.driver.counters.readFailures == 0)
}

@Test func persistentFailuresLoseTheSensorWithATypedFault() throws {
    var rig = try DriverOverI2CDev(settings: testSettings { $0.lostAfterFailures = 3 })
    rig.start()
    rig.board.burstErrnos = Array(repeating: .resourceTemporarilyUnavailable, count: 6)
    for _ in 0..<3 {
        let (tick, calls) = rig.tick()
        #expect(tick.sample == nil)
        // One try and one retry (`retries` = 1) per tick.
        #expect(calls == [burst, burst])
    }
    #expect(rig.driver.state == .lost)
    #expect(rig.driver.fault == .failedReads(count: 3, errno: .resourceTemporarilyUnavailable))
    #expect(rig.driver.counters.failedTicks == 3)
}

@Test func aRegisterThatDoesNotStickIsATypedFaultWithTheSameSentence() throws {
    let settings = testSettings()
    var rig = try DriverOverI2CDev(settings: settings)
    rig.board.readOverrides[MPU9250Register.gyroConfig.rawValue] = 0x00
    rig.start()
    let setting = try #require(settings.configurationTable.first { $0.register == .gyroConfig })
    #expect(rig.driver.state == .lost)
    #expect(rig.driver.fault == .configurationMismatch(setting, read: 0x00))
    #expect(rig.driver.lostReason == "configuration did not stick: gyro ±2000 °/s: 0x1B reads 0x00, expected 0x18")
}

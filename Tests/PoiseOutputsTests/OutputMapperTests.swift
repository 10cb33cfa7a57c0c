import PoiseControl
import Testing

private func frame(_ values: [OutputSignal: Float]) -> SignalFrame {
    var frame = SignalFrame()
    for (signal, value) in values { frame[signal] = value }
    return frame
}

@Test func pulseRangeIsLinearAndClamped() {
    var mapper = OutputMapper([.pulse(.motor1, periodMicroseconds: 2500, minMicroseconds: 1000, maxMicroseconds: 2000)])
    #expect(mapper.map(frame([.motor1: 0]), live: true, dt: 0.01)[0] == 1_000_000)
    #expect(mapper.map(frame([.motor1: 0.5]), live: true, dt: 0.01)[0] == 1_500_000)
    #expect(mapper.map(frame([.motor1: 1]), live: true, dt: 0.01)[0] == 2_000_000)
    #expect(mapper.map(frame([.motor1: 7]), live: true, dt: 0.01)[0] == 2_000_000, "clamped to input_max")
    #expect(mapper.map(frame([.motor1: -3]), live: true, dt: 0.01)[0] == 1_000_000, "clamped to input_min")
}

@Test func signedSignalUsesItsNaturalRangeAndInversionSwapsTheEnds() {
    var mapper = OutputMapper([
        .pulse(.leftWheel, periodMicroseconds: 20000, minMicroseconds: 1000, maxMicroseconds: 2000),
        .pulse(.leftWheel, periodMicroseconds: 20000, minMicroseconds: 1000, maxMicroseconds: 2000, invert: true),
    ])
    let commands = mapper.map(frame([.leftWheel: -0.5]), live: true, dt: 0.01)
    #expect(commands[0] == 1_250_000)
    #expect(commands[1] == 1_750_000)
}

@Test func explicitInputRangeAndDutyRange() {
    var mapping = ChannelMapping.duty(.pitch, periodMicroseconds: 1000, dutyMin: 0.2, dutyMax: 0.8)
    mapping.inputMin = -0.5
    mapping.inputMax = 0.5
    var mapper = OutputMapper([mapping])
    #expect(mapper.map(frame([.pitch: 0]), live: true, dt: 0.01)[0] == 500_000)
    #expect(mapper.map(frame([.pitch: 0.5]), live: true, dt: 0.01)[0] == 800_000)
    #expect(mapper.map(frame([.pitch: -1]), live: true, dt: 0.01)[0] == 200_000)
}

@Test func notLiveOrNaNGivesTheSafeValue() {
    var mapper = OutputMapper([
        .pulse(.motor1, periodMicroseconds: 2500, minMicroseconds: 1000, maxMicroseconds: 2000, safeMicroseconds: 900),
        .level(.armed, safeValue: true),
    ])
    let safe = mapper.map(frame([.motor1: 0.7, .armed: 0]), live: false, dt: 0.01)
    #expect(safe[0] == 900_000 && safe[1] == 1)
    #expect(safe == mapper.safeCommands)
    #expect(mapper.map(frame([.motor1: .nan, .armed: 0]), live: true, dt: 0.01)[0] == 900_000)
}

@Test func levelChannelsCompareWithTheThreshold() {
    var mapper = OutputMapper([.level(.leftWheel, threshold: 0.1), .level(.leftWheel, threshold: 0.1, invert: true)])
    var commands = mapper.map(frame([.leftWheel: 0.1]), live: true, dt: 0.01)
    #expect(commands[0] == 1 && commands[1] == 0)
    commands = mapper.map(frame([.leftWheel: 0.05]), live: true, dt: 0.01)
    #expect(commands[0] == 0 && commands[1] == 1)
}

@Test func slewLimitStartsFromTheSafeValueAndIsBumpless() {
    // 1 signal unit per second over a 1000 µs span: at most 10 µs per 10 ms tick.
    var mapper = OutputMapper([
        .pulse(.motor1, periodMicroseconds: 2500, minMicroseconds: 1000, maxMicroseconds: 2000,
               safeMicroseconds: 0, slewRate: 1),
    ])
    _ = mapper.map(frame([.motor1: 1]), live: false, dt: 0.01)
    // Safe is "no pulse" (0): the limiter starts at the bottom of the range, not at 0.
    #expect(mapper.map(frame([.motor1: 1]), live: true, dt: 0.01)[0] == 1_010_000)
    #expect(mapper.map(frame([.motor1: 1]), live: true, dt: 0.01)[0] == 1_020_000)
    #expect(mapper.map(frame([.motor1: 0]), live: true, dt: 0.01)[0] == 1_010_000)
    // Going safe resets the limiter; becoming live again restarts from the bottom.
    #expect(mapper.map(frame([.motor1: 1]), live: false, dt: 0.01)[0] == 0)
    #expect(mapper.map(frame([.motor1: 1]), live: true, dt: 0.01)[0] == 1_010_000)
}

@Test func slewedOutputNeverStepsMoreThanTheLimit() {
    var mapper = OutputMapper([.duty(.leftWheelDuty, periodMicroseconds: 50, slewRate: 2)])
    var previous = Int64(mapper.map(SignalFrame(), live: true, dt: 0.005)[0])
    var random = UInt64(7)
    for _ in 0..<500 {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        let target = Float(random >> 40) / Float(1 << 24)
        let now = Int64(mapper.map(frame([.leftWheelDuty: target]), live: true, dt: 0.005)[0])
        #expect(abs(now - previous) <= 500 + 1)  // 2/s × 0.005 s × 50 000 ns
        previous = now
    }
}

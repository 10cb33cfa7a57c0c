import PoiseFlightCore
import PoiseLinux
import PoiseThreads
import Testing

/// The wheel encoders' libgpiod reader over a mocked kernel: the lines it requests, and
/// edge events of both channels merged by their timestamps before decoding.
@Suite struct WheelEncoderSyscallTests {
    // The mock hands out handles in call order: the chip 100, then each line and its event
    // descriptor: left A 101 (fd 102), left B 103, right A 105, right B 107.
    static let leftA = 101, leftB = 103, rightA = 105, rightB = 107

    /// A mock whose lines are low and whose pending events are `events[line]`: (type, ms) pairs,
    /// type 1 rising, 2 falling. Every line with events is ready in `poll`.
    static func kernel(_ events: [Int: [(UInt8, UInt8)]]) -> SyscallMock {
        SyscallMock { call in
            switch call.name {
            case "gpiod_line_get_value": return .returns(0)
            case "poll":
                let ready = [leftA, leftB, rightA, rightB].map { events[$0] == nil ? UInt8(0) : 1 }
                return SyscallMock.Reply(value: ready.filter { $0 != 0 }.count, data: ready)
            case "gpiod_line_event_read_multiple":
                guard case .int(let line) = call.arguments[0] else { return .success }
                return .reads((events[line] ?? []).flatMap { [$0.0, $0.1] })
            default: return .success
            }
        }
    }

    @Test func theFourLinesAreRequestedForBothEdges() throws {
        let mock = Self.kernel([:])
        try mock.run {
            let encoders = try LinuxWheelEncoders(chip: "gpiochip0", left: (17, 27), right: (22, 23), state: WheelEncoderState())
            _ = encoders
        }
        #expect(mock.calls(named: "gpiod_chip_get_line").map { $0.arguments[1] } == [17, 27, 22, 23])
        let requests = mock.calls(named: "gpiod_line_request")
        #expect(requests.count == 4)
        // GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES is 6 in libgpiod v1.6's request types.
        #expect(requests.allSatisfy { $0.arguments[1] == "poise-wheel-encoder" && $0.arguments[2] == 6 })
        #expect(mock.calls(named: "gpiod_line_release").count == 4)
        #expect(mock.calls(named: "gpiod_chip_close").count == 1)
    }

    @Test func edgesOfBothChannelsAreDecodedInTheirTimeOrder() throws {
        // Left: A↑ 1 ms, B↑ 2 ms, A↓ 3 ms, B↓ 4 ms — A leads: forward 4, though each line's
        // events are read in one batch. Right: B leads: backward 2.
        let mock = Self.kernel([Self.leftA: [(1, 1), (2, 3)], Self.leftB: [(1, 2), (2, 4)],
                                Self.rightA: [(1, 6)], Self.rightB: [(1, 5)]])
        let state = WheelEncoderState()
        try mock.run {
            let encoders = try LinuxWheelEncoders(chip: "gpiochip0", left: (17, 27), right: (22, 23), state: state)
            encoders.pump(timeoutMilliseconds: 100)
            #expect(encoders.missedEdges == 0)
        }
        #expect(state.read().left == 4 && state.read().right == -2)
    }

    @Test func aLostEdgeIsCountedNotDecoded() throws {
        // A rises twice: the fall between was lost.
        let mock = Self.kernel([Self.leftA: [(1, 1), (1, 3)]])
        let state = WheelEncoderState()
        try mock.run {
            let encoders = try LinuxWheelEncoders(chip: "gpiochip0", left: (17, 27), right: (22, 23), state: state)
            encoders.pump(timeoutMilliseconds: 100)
            #expect(encoders.missedEdges == 1)
        }
        #expect(state.read().left == 1)
    }

    @Test func oneLineForTwoChannelsOrAMissingChipIsRefusedByName() {
        let mock = Self.kernel([:])
        mock.run {
            #expect(throws: LinuxWheelEncoders.Failure.self) {
                try LinuxWheelEncoders(chip: "gpiochip0", left: (17, 17), right: (22, 23), state: WheelEncoderState())
            }
        }
        let missing = SyscallMock { call in call.name == "gpiod_chip_open_lookup" ? .failure(.noSuchFileOrDirectory) : .success }
        missing.run {
            do {
                _ = try LinuxWheelEncoders(chip: "gpiochip9", left: (1, 2), right: (3, 4), state: WheelEncoderState())
                Issue.record("opened a missing chip")
            } catch {
                #expect("\(error)".hasPrefix("wheel encoders (controller.balance.encoders): cannot open the chip gpiochip9"),
                        "\(error)")
            }
        }
    }
}

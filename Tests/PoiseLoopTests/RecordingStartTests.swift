import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseReplayCore
import Testing

/// Which ticks a recording leaves out at its start (``RecordingStart``).
@Suite struct RecordingStartTests {
    /// A tick of the driver's start-up: no sample, disarmed, the filter initialising.
    static func startup(_ tick: UInt64) -> TickRecord {
        var r = TickRecord()
        r.tick = tick
        r.filterFlags = .initialising
        return r
    }

    static func sampled(_ tick: UInt64) -> TickRecord {
        var r = startup(tick)
        r.sampleValid = true
        r.sensorState = .running
        return r
    }

    static func written(_ records: [TickRecord]) -> (ticks: [UInt64], leftOut: Int) {
        var start = RecordingStart()
        var ticks: [UInt64] = []
        for r in records { start.admit(r) { ticks.append($0.tick) } }
        return (ticks, start.ticksLeftOut)
    }

    @Test func theStartUpTicksAreLeftOutAndEveryTickFromTheFirstSampleIsWritten() {
        var records = (0..<100).map { Self.startup($0) }
        records.append(Self.sampled(100))
        // A tick without a sample later on is written: the recording has started.
        records.append(Self.startup(101))
        records.append(Self.sampled(102))
        let (ticks, leftOut) = Self.written(records)
        #expect(ticks == [100, 101, 102])
        #expect(leftOut == 100)
    }

    @Test func aStartUpTickThatDidSomethingStartsTheRecording() {
        var failed = Self.startup(3)
        failed.readFailed = true
        #expect(Self.written([Self.startup(0), Self.startup(1), Self.startup(2), failed, Self.startup(4)]).ticks == [3, 4])
        var stopped = Self.startup(1)
        stopped.stopRequested = true
        stopped.armState = .disarmed
        stopped.eventReason = .stopRequested
        #expect(Self.written([Self.startup(0), stopped]).ticks == [1])
        var lost = Self.startup(1)
        lost.sensorState = .lost
        #expect(Self.written([Self.startup(0), lost]).ticks == [1])
        // A busy start (an overrun streak below the limit) is still start-up.
        var busy = Self.startup(1)
        busy.overrunStreak = 3
        #expect(Self.written([Self.startup(0), busy, Self.sampled(2)]).ticks == [2])
    }

    /// An armed tick's outputs read the time of the tick before (their slew limit): when the
    /// first written tick arms, the start-up tick before it is written too.
    @Test func aFirstTickThatArmsKeepsTheTickBeforeIt() {
        var armed = Self.sampled(5)
        armed.armState = .armed
        armed.eventReason = .armingConditionsMet
        let (ticks, leftOut) = Self.written((0..<5).map { Self.startup($0) } + [armed])
        #expect(ticks == [4, 5])
        #expect(leftOut == 4)
    }
}

import Testing
@testable import PoiseLoop

/// Skipping after an overrun (no clock involved: `finishTick` is given the time).
@Suite struct TickSchedulerTests {
    @Test func anOverrunSkipsTheDeadlinesItRanPast() {
        var scheduler = TickScheduler(periodNanoseconds: 1000, start: 5000)
        let onTime = scheduler.finishTick(at: 5900)
        let late = scheduler.finishTick(at: 20_000)
        #expect(!onTime && late)
        #expect(scheduler.skippedDeadlines == 15)
        #expect(scheduler.deadline == 20_000)
    }

    /// Found by `durationStopsCleanlyWithStatistics` on a loaded CI machine: an overrun just
    /// before the end skipped the stopping tick's deadline too, so a 2 s run counted 2001
    /// deadlines. The last deadline of a bounded run is never skipped: ticked, late.
    @Test func theLastDeadlineOfABoundedRunIsNeverSkipped() {
        var scheduler = TickScheduler(periodNanoseconds: 1000, start: 5000)
        scheduler.lastDeadline = 8000
        let late = scheduler.finishTick(at: 20_000)
        #expect(late)
        #expect(scheduler.skippedDeadlines == 2)          // 6000 and 7000
        #expect(scheduler.deadline + 1000 == 8000)        // the next tick is the last one
        let lateAgain = scheduler.finishTick(at: 30_000)
        #expect(lateAgain && scheduler.skippedDeadlines == 2)          // nothing left to skip before it
    }
}

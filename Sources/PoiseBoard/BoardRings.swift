/// How many tick records the board's telemetry ring holds: what the loop produces while its
/// consumer is away, not a fixed count. Every slot is written at start-up (no page of a ring
/// is first touched inside a tick), so each one is resident for the whole run — at 1 kHz a
/// fixed 4 096-record ring was 1.7 MB, most of the program's memory.
enum BoardRings {
    /// The telemetry sender drains its ring whenever it finds records and otherwise sleeps
    /// 1 ms; its sends never block (UDP). A quarter of a second of ticks covers a sender
    /// descheduled by the loop and the reporter many times over; a record that does not fit
    /// is dropped and counted in SYS_STATUS, never waited for. At least 64.
    static let telemetrySeconds = 0.25

    /// The telemetry ring's capacity at the loop's rate: 250 records at 1 kHz, 64 at 50 Hz.
    static func telemetryCapacity(rateHz: Double) -> Int {
        max(64, Int((rateHz * telemetrySeconds).rounded(.up)))
    }
}

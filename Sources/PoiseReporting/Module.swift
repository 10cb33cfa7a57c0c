// PoiseReporting: what a run says while the loop runs, off the real-time thread — the tick
// reporter (drains the tick ring, writes the recording with its flushes and syncs, prints
// the arming transitions, the filter's convergence and the driver's notices, redraws the
// status line), systemd's readiness and watchdog notifications, the failsafe note of the
// summary, and the one writer of standard error. Builds in Embedded Swift for the board.

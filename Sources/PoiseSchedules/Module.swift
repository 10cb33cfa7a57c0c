// PoiseSchedules: what a run follows over time — setpoint schedules (balance lean, drive
// speed and turn) and drive schedules, read from files by one schedule reader on the trace
// reader or taken from presets. The live run and the tick replay of its recording both use
// them, so the replay re-creates the inputs the run had.

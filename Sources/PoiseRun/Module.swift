// PoiseRun: the run composition at the top — builds what a configuration describes on the
// Linux or the simulated board (`LoopRunner`, the two rigs, the built-in configuration),
// connects the links around the loop (ground station and its parameter table, gamepad and
// pilot mapping, setpoint and drive schedules), starts PoiseReporting's tick reporter beside
// it, writes the simulation report and offers the library's `MotionManager`.

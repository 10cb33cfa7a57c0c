// PoiseLoop: the fixed-rate real-time loop of `poise run` and of the library's
// MotionManager — scheduling, real-time set-up, statistics, the recorder thread, signals and
// the two boards (Linux hardware and the simulated world) it runs on.

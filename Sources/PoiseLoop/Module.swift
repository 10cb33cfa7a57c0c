// PoiseLoop: the composition at the top — builds the loop a configuration describes on the
// Linux or the simulated board, runs it at its fixed rate (scheduler, real-time set-up,
// statistics, the recorder and signal threads), and the library's MotionManager.

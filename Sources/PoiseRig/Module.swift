// PoiseRig: the real rig opened from its resolved settings (PoiseFlightSettings' `RigSettings`
// and the calibration beside it) — the I²C bus and the MPU-9250 driver with the outputs, the
// arming switch's watcher, the wheel encoders and the bus reopener (`LinuxRigParts`). The
// host's `poise run` and `poise tune` open it from the YAML, the board from the compiled file:
// one builder. No Foundation, no swift-log (warnings go to a `DriverLog` and a plain closure):
// it builds in Embedded Swift (scripts/build-embedded).

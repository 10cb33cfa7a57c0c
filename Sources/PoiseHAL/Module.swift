// PoiseHAL: the hardware abstraction, as ArduPilot's AP_HAL — the I²C bus, GPIO device and
// PWM file interfaces the drivers are generic over, and the logic that is the same on every
// backend (bus scans, PWM channel set-up). No kernel calls and no C libraries: those live in
// the Linux backend (PoiseLinux), the simulated chips in PoiseSimulation.

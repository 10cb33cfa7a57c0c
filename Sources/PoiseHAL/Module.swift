// PoiseHAL: the hardware abstraction, as ArduPilot's AP_HAL — the interfaces only: the I²C
// bus, the GPIO device and the PWM file system the drivers are generic over, their errors,
// and the bus scan written once against them. No kernel calls and no C libraries: the Linux
// backend (PoiseLinux) and the simulated one (PoiseSimulation) implement these interfaces;
// the drivers (PoiseSensors, PoiseOutputs) use nothing else.

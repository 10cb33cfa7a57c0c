// PoiseLinux: the Linux backend, as ArduPilot's AP_HAL_Linux — i2c-dev with libi2c, libgpiod
// v1.6 and sysfs PWM behind one syscall layer, and `LinuxBoard`, the board the loop runs on
// real hardware. The only module that links the kernel libraries.

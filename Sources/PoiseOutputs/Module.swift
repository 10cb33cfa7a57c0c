// PoiseOutputs: the output bank a tick writes through — GPIO lines, sysfs PWM channels and the
// PCA9685 on the sensor's I²C bus — generic over the HAL's interfaces, so the same bank
// drives the Linux backend (libgpiod v1.6, sysfs PWM, i2c-dev) and the simulated one. It
// writes only what changed and drives every channel to its safe value on any fault.

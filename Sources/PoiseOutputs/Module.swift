// PoiseOutputs: the output backends a tick writes through — GPIO lines (libgpiod v1.6),
// sysfs PWM channels and the PCA9685 on the sensor's I²C bus — behind one output bank that
// writes only what changed and drives every channel to its safe value on any fault.

// PoiseSimulation: the simulated world, kept apart from the drivers as ArduPilot keeps SITL
// apart from its HAL backends — register-level simulated chips behind the same `I2CBus` as
// the Linux backend, plant models, and their coupling to the outputs the loop writes.

// PoiseSimulation: the simulated board, the backend that ArduPilot calls SITL — register-level
// simulated chips behind the same HAL interfaces as the Linux backend, plant models and
// scripted worlds, and their coupling to the outputs the loop writes. The real drivers run
// over it unchanged; nothing here talks to the kernel.

// PoiseLoop: the fixed-rate loop and its clocks — `LiveLoop` runs one `FlightCore` tick per
// period against a board backend, the clocks (real time, virtual for simulation) pace it,
// and the real-time set-up, latency histogram, statistics, allocation counter and stop
// signals measure and guard it. What the loop runs is composed above it, in PoiseRun.

// PoiseFlightCore: the flight core — the tick contract and what one tick does. It reads a
// `SensorReading`, computes (`FlightCore`: start-up bias, gyroscope filters, filter,
// controller, supervisor, output mapping) and hands on a `TickRecord` and any `OutputFault`;
// `ReloadableSettings` is what a reload may change between ticks, `BoardBackend` the interface both
// boards implement. No host-only code: it builds in Embedded Swift for the board, and
// everything that runs the tick (the loop, the replays, the board binary) builds on it.

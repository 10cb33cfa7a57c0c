// PoiseTick: the tick contract — what one tick reads (`SensorReading`), computes
// (`FlightCore`: filter, controller, supervisor, output mapping) and hands on (`TickRecord`,
// `OutputFault`), the `BoardBackend` interface both boards implement, and the lock-free
// hand-overs between the tick and the other threads. Everything above builds on it.

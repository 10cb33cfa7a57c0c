// PoiseFlightSettings: the resolved settings the flight core, the tick and the replays run
// with (`FlightSettings`), and their compiled file (`CompiledSettings`: magic, format
// version, length, sections, CRC-32). The host's `poise` resolves them from the YAML
// configuration (PoiseSettings' `FlightCoreFactory.settings`) and builds its `FlightCore` from
// them; the board binary reads the same value from `poise compile`'s file. No Foundation, no
// existentials, typed throws: it builds in Embedded Swift (scripts/build-embedded).

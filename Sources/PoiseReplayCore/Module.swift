// PoiseReplayCore: the replay loops the host's `poise replay` and the board binary both run —
// a plain trace sample by sample through a filter (`SampleFeed`, the base columns of
// `ReplayRow`), and a `poise run` recording tick by tick through the flight core
// (`TickReplayLoop`, written in the recording's format, `RecordingColumns`). It takes
// resolved settings (PoiseFlightSettings), never the YAML configuration, so it builds in
// Embedded Swift (scripts/build-embedded).

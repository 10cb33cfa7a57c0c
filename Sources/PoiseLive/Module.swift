// PoiseLive: the parts of a live run opened from the resolved settings (``FlightSettings``),
// for both compositions that run the loop on hardware — the host's `poise run` (PoiseRun, from
// the YAML) and the board's `poise-board run` (PoiseBoard, from the compiled file): the
// recording's file, the telemetry link with its key and stored timestamps, the reporter's
// settings, the loop's links, and arming by command. Builds in Embedded Swift.

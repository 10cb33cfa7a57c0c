import PoiseConfig
import PoiseFlightSettings
import PoiseReplayCore
import PoiseSettings
import PoiseTraces

/// `poise replay` of a `poise run` recording (or any trace with `--ticks`): every row is
/// one tick of the same ``FlightCore`` the live loop runs — the sensor replaced by the
/// trace, the outputs captured — written in the recording's own format, with one column
/// per output channel. A recording replayed with the configuration it was made with gives
/// byte-identical estimates, arming states and outputs.
///
/// The loop is PoiseReplayCore's ``TickReplayLoop``, the one the board binary runs; this
/// resolves the configuration into its ``FlightSettings`` (`FlightCoreFactory.settings`), as
/// `poise compile` does for the board.
///
/// What a recording cannot carry: a SIGHUP reload during the run (the replay uses the
/// configuration given for every tick).
public enum TickReplay {
    public typealias Summary = TickReplayLoop.Summary

    public static func run(configuration: PoiseConfiguration, reader: consuming TraceReader,
                           output: String) throws -> Summary {
        try run(settings: FlightCoreFactory.settings(configuration), reader: reader, output: output)
    }

    /// The replay with settings already resolved (a compiled configuration's).
    public static func run(settings: FlightSettings, reader: consuming TraceReader, output: String) throws -> Summary {
        try TickReplayLoop.run(settings: settings, reader: reader, output: output)
    }
}

/// The recording's columns are PoiseReplayCore's (the board writes them too); the name stays
/// here for the live loop's recorder.
public typealias RecordingColumns = PoiseReplayCore.RecordingColumns
/// Which ticks the live loop's recorder leaves out at the start (PoiseReplayCore's).
public typealias RecordingStart = PoiseReplayCore.RecordingStart

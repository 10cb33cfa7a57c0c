import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightSettings
import PoiseMath
import PoiseReplay
import PoiseSettings
import PoiseTelemetry
import PoiseTraces

/// A whole trace as page snapshots, for `poise view TRACE` and its time slider.
///
/// The trace goes through the filter, then through exactly the telemetry encoding and
/// decoding a live stream takes, so what the page shows for a trace is what it would show
/// for the same trace sent by `poise play`.
public enum TraceSnapshots {
    /// Snapshots at `rateHz` (the attitude rate; other messages at their telemetry rates), the
    /// readings calibrated as `configuration` says (as `poise replay` and `poise play` do).
    public static func load(path: String, configuration: PoiseConfiguration, choice: FilterSettings,
                            useMagnetometer: Bool, rateHz: Double = 50) throws -> [ViewSnapshot] {
        var settings = TelemetrySettings(configuration: configuration)
        settings.attitudeHz = rateHz
        settings.imuHz = rateHz
        settings.outputsHz = rateHz
        settings.heartbeatHz = max(settings.heartbeatHz, 2)
        settings.statusHz = max(settings.statusHz, 2)
        var stream = TelemetryStream(settings: settings)
        var state = ViewState()
        var snapshots: [ViewSnapshot] = []
        var playback = TracePlayback(reader: try TraceReader(path: path), configuration: configuration) { record in
            stream.process(record) { bytes in
                guard case .success(let (frame, _)) = MAVLinkDecoder.decode(Array(bytes)) else { return }
                if state.apply(frame, receivedAt: 0) { snapshots.append(state.snapshot) }
            }
            return true
        }
        playback.useMagnetometer = useMagnetometer
        _ = try choice.run(&playback)
        return snapshots
    }

    /// The output channels' names, from the trace's `out_NAME` columns (a `poise run`
    /// recording), in channel order; empty when it has none.
    public static func channelNames(path: String) throws -> [String] {
        try TraceReader(path: path).columns.filter { $0.hasPrefix("out_") }.prefix(16).map { String($0.dropFirst(4)) }
    }
}

import PoiseConfig
import PoiseDeviceSettings
import PoiseTelemetry

extension TelemetrySettings {
    /// Settings from a loaded configuration: the `telemetry` keys are bound to these fields
    /// (PoiseConfig); the world layout comes from `frame.output`, and the level channels from
    /// `outputs.channels`, in config order (the order of ``ChannelCommands``), GPIO lines sent as levels.
    public init(configuration: PoiseConfiguration) {
        self = configuration.telemetry.stream
        world = MAVLinkFrames.worldAxes(ofOutputFrame: configuration.frame.output.rawValue)
        for (i, channel) in configuration.outputs.channels.enumerated() where i < 16 && channel.kind == .gpio {
            levelChannels |= 1 << UInt16(i)
        }
    }

    /// The configured destination, nil when telemetry is off.
    public static func address(configuration: PoiseConfiguration) throws(TelemetryError) -> TelemetryAddress? {
        guard let text = configuration.telemetry.address else { return nil }
        return try TelemetryAddress(parsing: text)
    }
}

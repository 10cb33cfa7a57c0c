import PoiseConfig
import PoiseTelemetry

extension TelemetrySettings {
    /// Settings from a loaded configuration's `telemetry` and `frame` sections. Output
    /// channels are taken in config order (the order of ``ChannelCommands``); GPIO lines are
    /// sent as levels.
    public init(configuration: PoiseConfiguration) {
        self.init()
        let t = configuration.telemetry
        systemID = UInt8(t.systemID)
        componentID = UInt8(t.componentID)
        heartbeatHz = t.heartbeatHz
        attitudeHz = t.attitudeHz
        imuHz = t.imuHz
        outputsHz = t.outputsHz
        statusHz = t.statusHz
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

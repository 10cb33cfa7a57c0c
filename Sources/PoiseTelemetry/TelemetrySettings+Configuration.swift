import PoiseConfig

extension TelemetrySettings {
    /// Settings from a loaded configuration's `telemetry` and `frame` sections. Output
    /// channels are taken in config order, PWM channels first and then GPIO lines (the order
    /// of ``ChannelCommands``), so the GPIO ones are sent as levels.
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
        let pwm = configuration.outputs.pwm.count
        for i in 0 ..< configuration.outputs.gpio.count where pwm + i < 16 { levelChannels |= 1 << (pwm + i) }
    }

    /// The configured destination, nil when telemetry is off.
    public static func address(configuration: PoiseConfiguration) throws(TelemetryError) -> TelemetryAddress? {
        guard let text = configuration.telemetry.address else { return nil }
        return try TelemetryAddress(parsing: text)
    }
}

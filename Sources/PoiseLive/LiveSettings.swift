import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseLoop
import PoiseOutputs
import PoiseReporting

extension TickReporter.Settings {
    /// The reporter of a live run on `settings`' rig: the recorder's flush and sync, the
    /// statistics line, transitions (none when `quiet`), the status line on a terminal, the
    /// outputs' names and kinds, systemd's notifier when the service manager asked for one.
    public init(live settings: FlightSettings, channels: [OutputChannelSpec], recordingName: String, quiet: Bool,
                statusLine: Bool, notifier: ServiceNotifier?) {
        self.init()
        flushInterval = settings.rig.recording.flushInterval
        syncInterval = settings.rig.recording.syncInterval
        self.recordingName = recordingName
        sensor = settings.rig.sensor
        sensorBus = settings.rig.i2cBus
        safety = settings.safety
        logInterval = quiet ? 0 : settings.rig.logInterval
        self.statusLine = statusLine && !quiet
        transitions = !quiet
        channelNames = channels.map { $0.name }
        channelIsPulse = channels.map { if case .gpio = $0.hardware { false } else { true } }
        self.notifier = notifier
    }
}

extension LoopSettings {
    /// A live loop at the settings' rate with the rig's real-time set-up (SCHED_FIFO, CPU, mlockall).
    public init(live settings: FlightSettings, duration: Double?) {
        let realtime = settings.rig.realtime
        self.init(rateHz: settings.loopRateHz, duration: duration,
                  realtime: RealtimeSetup(priority: realtime.priority, cpu: realtime.cpu, lockMemory: realtime.lockMemory))
    }
}

extension LoopLinks {
    /// What full stick means and how long a pilot's sticks stay fresh, from the rig's settings.
    public mutating func follow(_ rig: RigSettings) {
        pilotTimeout = rig.telemetry.setpointTimeout
        pilotMapping.maxYawRate = rig.pilot.maxYawRate
        pilotMapping.scales = rig.pilot.sticks
    }
}

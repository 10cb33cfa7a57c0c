import PoiseDeviceSettings
import PoiseTelemetry

/// The telemetry stream and what signs it, opened before the loop starts: the sender to the
/// ground station, the signing key (read, and its file checked, first) and the signing
/// timestamps kept in the state directory, so no frame is accepted twice across restarts.
public struct TelemetryLink {
    public let sender: TelemetrySender
    public let key: MAVLinkSigningKey?
    public let store: MAVLinkSigningStore?

    /// The link `settings` and `address` describe, or nil when telemetry is off (no address).
    /// - Parameters:
    ///   - configurationFile: the file the settings came from; a relative key file is read
    ///     from its folder, as the setpoint file is.
    ///   - stateDirectory: `--state-dir` (else `$STATE_DIRECTORY`, else /var/lib/poise if it exists).
    ///   - warn: a warning for the operator (no state directory for a signed link).
    ///   - ringCapacity: the records the sender's ring holds (the board sizes it from the loop's rate).
    public static func open(settings: TelemetrySettings, address: TelemetryAddress?, configurationFile: String?,
                            stateDirectory: String?, ringCapacity: Int = 4096,
                            warn: (String) -> Void) throws(TelemetryError) -> TelemetryLink? {
        var key: MAVLinkSigningKey? = nil
        if let file = settings.signingKeyFile {
            key = try MAVLinkSigningKey(file: beside(configurationFile, file))
        }
        guard let address else { return nil }
        let sender = try TelemetrySender(address: address, settings: settings, ringCapacity: ringCapacity)
        var store: MAVLinkSigningStore? = nil
        if key != nil {
            if let directory = MAVLinkSigningStore.directory(option: stateDirectory) {
                do { store = try MAVLinkSigningStore(directory: directory) } catch {
                    throw TelemetryError("telemetry: " + error.description)
                }
            } else {
                warn("telemetry: no state directory (--state-dir): after a restart, frames of this run may be accepted again")
            }
        }
        if let key { sender.sign(with: key, after: store?.startingState.sent ?? 0) }
        return TelemetryLink(sender: sender, key: key, store: store)
    }

    /// `file` as written: absolute, or relative to the folder of `configurationFile`.
    public static func beside(_ configurationFile: String?, _ file: String) -> String {
        guard !file.hasPrefix("/"), let configurationFile, let slash = configurationFile.lastIndex(of: "/") else { return file }
        return String(configurationFile[...slash]) + file
    }
}

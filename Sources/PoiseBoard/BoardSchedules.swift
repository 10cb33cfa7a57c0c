import PoiseControl
import PoiseFlightSettings
import PoiseSchedules
import PoiseTraces

/// The setpoints `poise-board run` follows, from the compiled file: the setpoint file it names
/// (read here, relative to the compiled file's folder, checked row by row as `poise check`
/// checks it on the host), a built-in drive script's rows, or the fixed test throttle.
enum BoardSchedules {
    static func setpoints(_ settings: FlightSettings, compiledFile: String) throws(BoardRunError) -> SetpointSchedule {
        guard case .quad = settings.controller, !settings.rig.setpointFile.isEmpty else {
            return SetpointSchedule(throttle: settings.setpoints.quadThrottle)
        }
        let path = beside(compiledFile, settings.rig.setpointFile)
        do throws(TraceError) {
            return try SetpointSchedule(path: path, text: try CompiledSettingsFile.readText(path: path, limit: SetpointSchedule.maximumFileBytes))
        } catch {
            throw BoardRunError(error.description)
        }
    }

    static func drive(_ settings: FlightSettings, compiledFile: String) throws(BoardRunError) -> DriveSchedule {
        guard case .balance = settings.controller else { return DriveSchedule() }
        if settings.rig.setpointFile.isEmpty {
            guard !settings.setpoints.driveScript.isEmpty else { return DriveSchedule() }
            return DriveSchedule(rows: settings.setpoints.driveScript.map { ($0.time, $0.setpoint) })
        }
        let path = beside(compiledFile, settings.rig.setpointFile)
        do throws(TraceError) {
            return try DriveSchedule(path: path, text: try CompiledSettingsFile.readText(path: path, limit: SetpointSchedule.maximumFileBytes))
        } catch {
            throw BoardRunError(error.description)
        }
    }

    /// `file` as written: absolute, or relative to the compiled file's folder.
    static func beside(_ compiledFile: String, _ file: String) -> String {
        guard !file.hasPrefix("/"), let slash = compiledFile.lastIndex(of: "/") else { return file }
        return String(compiledFile[...slash]) + file
    }
}

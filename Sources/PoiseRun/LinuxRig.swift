import Logging
import PoiseConfig
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseHAL
import PoiseLinux
import PoiseLogging
import PoiseLoop
import PoiseOutputs
import PoiseRig
import PoiseSchedules
import PoiseSettings
import PoiseThreads

/// The real rig a configuration describes (`board.kind: linux`) as a loop ready to be driven
/// tick by tick (`poise tune`): the parts `poise run` opens (``LinuxRigParts``: board, driver,
/// arming switch, wheel encoders, bus reopener), without its recorder and telemetry.
/// `close()` releases the board and stops the helper threads.
public final class LinuxRig {
    public var loop: LiveLoop<LinuxBoard, PoiseFilter>
    let parts: LinuxRigParts

    public init(_ configuration: PoiseConfiguration, quiet: Bool = true) throws(RunError) {
        let outputs = OutputBankSettings(configuration: configuration)
        var logger = Logger(label: "poise.sensors")
        if quiet { logger.logLevel = .warning }
        let settings = FlightCoreFactory.settings(configuration)
        do {
            parts = try LinuxRigParts(settings.rig, calibration: settings.calibration, outputs: outputs, log: DriverLog(logger),
                                      warn: { [logger] in logger.warning("\($0)") })
        } catch { throw RunError(error.description) }
        let filter = PoiseFilter(settings: settings.filter.poise)
        let core = settings.core(filter: filter)
        let links = LoopLinks(signals: StopSignals(), armSwitch: parts.armSwitch?.state,
                              setpoints: SetpointSchedule(throttle: Float(configuration.controller.quad.throttle)),
                              encoders: parts.encoders?.state)
        loop = LiveLoop(board: parts.board, core: core, links: links, settings: LoopSettings(rateHz: configuration.loop.rateHz))
    }

    public func close() {
        _ = loop.board.release()
        parts.stop()
    }
}

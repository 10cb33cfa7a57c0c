import Logging
import PoiseConfig
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseLinux
import PoiseLoop
import PoiseOutputs
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
        parts = try LinuxRigParts(configuration, outputs: outputs, logger: logger)
        let filter = PoiseFilter(settings: FilterSettings(configuration: configuration).poise)
        let core = CoreConfiguration.core(configuration, filter: filter)
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

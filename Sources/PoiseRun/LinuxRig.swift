import Logging
import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFusion
import PoiseLinux
import PoiseLoop
import PoiseOutputs
import PoiseReplay
import PoiseSchedules
import PoiseSensors
import PoiseSettings

/// The real rig a configuration describes (`board.kind: linux`) as a loop ready to be driven
/// tick by tick (`poise tune`): the board, driver, arming switch and bus reopener `poise run`
/// opens, without its recorder and telemetry. `close()` stops the helper threads.
public final class LinuxRig {
    public var loop: LiveLoop<LinuxBoard, PoiseFilter>
    let reopener: LinuxBusReopener
    let watcher: LinuxArmSwitch?

    public init(_ configuration: PoiseConfiguration, quiet: Bool = true) throws(RunError) {
        let outputs = OutputBankSettings(configuration: configuration)
        var logger = Logger(label: "poise.sensors")
        if quiet { logger.logLevel = .warning }
        let board = try LinuxBoardSetup.board(configuration, outputs: outputs, logger: logger)
        let watcher = try LinuxBoardSetup.armSwitch(configuration)
        self.watcher = watcher
        let reopenLogger = logger
        reopener = LinuxBusReopener(bus: board.driver.bus, health: board.busHealth) { reopenLogger.warning("\($0)") }
        reopener.start()
        let filter = PoiseFilter(settings: FilterChoice(configuration: configuration).poise)
        let core = CoreConfiguration.core(configuration, filter: filter)
        let links = LoopLinks(signals: StopSignals(), armSwitch: watcher?.state,
                              setpoints: SetpointSchedule(throttle: Float(configuration.controller.quad.throttle)))
        loop = LiveLoop(board: board, core: core, links: links, settings: LoopSettings(rateHz: configuration.loop.rateHz))
    }

    public func close() {
        _ = loop.board.release()
        reopener.stop()
        watcher?.stop()
    }
}

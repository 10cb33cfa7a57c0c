import PoiseConfig
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseLinux
import PoiseReporting
import PoiseThreads
import Synchronization

/// The gamepad a configuration names (`input.gamepad`), started for `poise run`: its reader's
/// thread hands the sticks to `mailbox`, stamped with the loop's clock (CLOCK_MONOTONIC
/// seconds, what `RealTimeClock.timestamp()` reads), and the arm and disarm presses when
/// `safety.arm_source` is `gamepad`. Not started for simulated time (`poise simulate`), whose
/// runs depend only on the configuration.
enum GamepadLink {
    /// The running reader of `settings` (the rig's, ``RigSettings/gamepad``), or nil when no
    /// gamepad is configured; throws why it cannot be used.
    static func start(_ configuration: PoiseConfiguration, settings: GamepadSettings, mailbox: ManualControlMailbox,
                      quiet: Bool) throws(RunError) -> GamepadReader? {
        guard settings.enabled else { return nil }
        let armsFromPad = configuration.safety.supervisor.armSource == .gamepad
        let ignoredPressNoted = Atomic<Bool>(false)
        let sink = GamepadReader.Sink(
            sticks: { mailbox.publish($0, at: Double(monotonicNanoseconds()) * 1e-9) },
            arm: { arm in
                if armsFromPad {
                    mailbox.request(arm ? .arm : .disarm)
                } else if !ignoredPressNoted.exchange(true, ordering: .relaxed) {
                    printToStandardError("poise: gamepad: the \(arm ? "arm" : "disarm") button does nothing: "
                        + "safety.arm_source is \(configuration.values.string("safety.arm_source")), not gamepad\n")
                }
            },
            log: { printToStandardError("poise: \($0)\n") })
        let reader = GamepadReader(settings: settings, sink: sink)
        do { try reader.connect() } catch { throw RunError(error.description) }
        if !quiet, let device = reader.device {
            printToStandardError("poise: gamepad \"\(device.name)\" (\(device.path))\(armsFromPad ? ": \(settings.armButton.kernelName) arms, \(settings.disarmButton.kernelName) disarms" : "")\n")
        }
        reader.start()
        return reader
    }
}

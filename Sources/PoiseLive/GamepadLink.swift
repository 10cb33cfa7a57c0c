import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseLinux
import PoiseReporting
import PoiseThreads
import Synchronization

/// The gamepad the rig names (`input.gamepad`), started for a live run on the host or the
/// board: its reader's thread hands the sticks to `mailbox`, stamped with the loop's clock
/// (CLOCK_MONOTONIC seconds, what the tick's clock reads), and the arm and disarm presses when
/// the arm source is the gamepad. Not started for simulated time, whose runs depend only on the
/// configuration.
public enum GamepadLink {
    /// The running reader, or nil when no gamepad is configured; throws why it cannot be used.
    /// `program` prefixes its lines (`poise`, `poise-board`).
    public static func start(_ settings: GamepadSettings, armSource: ArmSource, mailbox: ManualControlMailbox,
                             program: String, quiet: Bool) throws(GamepadError) -> GamepadReader? {
        guard settings.enabled else { return nil }
        let armsFromPad = armSource == .gamepad
        let ignoredPress = OnceFlag()
        let sink = GamepadReader.Sink(
            sticks: { mailbox.publish($0, at: Double(monotonicNanoseconds()) * 1e-9) },
            arm: { arm in
                if armsFromPad {
                    mailbox.request(arm ? .arm : .disarm)
                } else if ignoredPress.first() {
                    printToStandardError(program + ": gamepad: the " + (arm ? "arm" : "disarm")
                        + " button does nothing: safety.arm_source is not gamepad\n")
                }
            },
            log: { printToStandardError(program + ": " + $0 + "\n") })
        let reader = GamepadReader(settings: settings, sink: sink)
        try reader.connect()
        if !quiet, let device = reader.device {
            let buttons = armsFromPad ? ": " + settings.armButton.kernelName + " arms, " + settings.disarmButton.kernelName + " disarms" : ""
            printToStandardError(program + ": gamepad \"" + device.name + "\" (" + device.path + ")" + buttons + "\n")
        }
        reader.start()
        return reader
    }
}

/// True the first time only, from any thread (a class: Embedded Swift cannot capture an
/// `Atomic` itself in an escaping closure).
final class OnceFlag: Sendable {
    private let taken = Atomic<Bool>(false)

    func first() -> Bool { !taken.exchange(true, ordering: .relaxed) }
}

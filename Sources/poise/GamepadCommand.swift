import ArgumentParser
import Foundation
import PoiseConfig
import PoiseControl
import PoiseDeviceSettings
import PoiseLinux
import PoiseLoop
import PoiseRun
import Synchronization

/// `poise gamepad`: the input devices, and a gamepad's sticks live as the loop would get them.
struct GamepadCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "gamepad",
        abstract: "List the input devices, or show a gamepad's sticks live as `poise run` reads them.",
        discussion: """
            Without a gamepad named, lists every /dev/input/event* device: its name (what \
            input.gamepad.name takes), whether it is a gamepad (its absolute axes) or why it \
            cannot be read. With --name, --device or a configuration whose input.gamepad names \
            one, opens it with that configuration's mapping (axes, inversion, deadzone, arm and \
            disarm buttons; the defaults otherwise) and prints the normalised sticks whenever \
            they change, each arm or disarm press, and disconnects and reconnects, until Ctrl-C \
            or --seconds. x, y and r run from -1 to 1 and z from 0 to 1, as MAVLink's \
            MANUAL_CONTROL scaled to 1. See docs/gamepad.md.

            Examples:
              poise gamepad
              poise gamepad --name "Xbox Wireless Controller"
              poise gamepad --config /etc/poise/poise.yaml --seconds 10
            """)

    @Option(help: "A configuration whose input.gamepad to use (the device and the mapping).")
    var config: String?

    @Option(help: "The gamepad's name, as the list shows it.")
    var name: String?

    @Option(help: "The gamepad's event device, e.g. /dev/input/event3.")
    var device: String?

    @Option(parsing: .unconditional, help: "Stop after this many seconds (0: at Ctrl-C).")
    var seconds: Double = 0

    @Option(help: "Where the input devices are.")
    var directory: String = "/dev/input"

    func validate() throws {
        if name != nil && device != nil { throw ValidationError("give --name or --device, not both") }
        guard seconds >= 0, seconds.isFinite else { throw ValidationError("--seconds must be 0 or more") }
    }

    func execute() throws {
        var settings = GamepadSettings()
        if let config {
            do { settings = try PoiseConfiguration.load(path: config).input.gamepad } catch {
                throw CLIError.asIs(error.description)
            }
        }
        if let name { settings.name = name; settings.device = nil }
        if let device { settings.device = device; settings.name = nil }
        guard settings.enabled else { return try list() }
        try watch(settings)
    }

    func list() throws {
        let entries: [EvdevDirectory.Entry]
        switch EvdevDirectory.list(directory) {
        case .failure(let errno):
            throw CLIError("cannot list \(directory): \(errno) (no input devices on this machine?)")
        case .success(let list): entries = list
        }
        guard !entries.isEmpty else {
            print("\(directory): no event devices (is the gamepad connected? a Bluetooth pad must be paired and connected)")
            return
        }
        for entry in entries {
            guard let name = entry.name else {
                let problem = entry.problem?.description ?? "?"
                print("\(entry.path)  cannot read: " + (problem.hasPrefix("gamepad: ") ? String(problem.dropFirst(9)) : problem))
                continue
            }
            let axes = (try? EvdevDevice(path: entry.path))?.absoluteAxes ?? []
            let kind = axes.isEmpty ? "no absolute axes (not a gamepad)"
                : "gamepad: " + axes.sorted().map { code in
                    GamepadAxis.allCases.first { $0.code == code }?.rawValue ?? "abs\(code)"
                }.joined(separator: " ")
            print("\(entry.path)  \"\(name)\"  \(kind)")
        }
    }

    func watch(_ settings: GamepadSettings) throws {
        StopSignals.blockInProcess()
        let signals = StopSignals()
        signals.start(onReload: {})
        let latest = Mutex<ManualControl?>(nil)
        let presses = Mutex<[String]>([])
        let sink = GamepadReader.Sink(
            sticks: { control in latest.withLock { $0 = control } },
            arm: { arm in presses.withLock { $0.append(arm ? "arm (\(settings.armButton.kernelName))" : "disarm (\(settings.disarmButton.kernelName))") } },
            log: { printError("poise: \($0)") })
        let reader = GamepadReader(settings: settings, directory: directory, sink: sink)
        do { try reader.connect() } catch { throw CLIError(error.description) }
        if let device = reader.device { print("\(device.path)  \"\(device.name)\"  (Ctrl-C stops)") }
        let start = Date()
        var shown: ManualControl? = nil
        while !signals.stopRequested {
            let elapsed = Date().timeIntervalSince(start)
            if seconds > 0 && elapsed >= seconds { break }
            let connected = reader.isConnected
            reader.step(wait: 50)
            if !connected { usleep(50_000) }
            for press in presses.withLock({ list in defer { list = [] }; return list }) {
                print(String(format: "%7.2f s  ", elapsed) + "\(press) pressed")
            }
            if let control = latest.withLock({ $0 }), control != shown {
                shown = control
                print(String(format: "%7.2f s  x %+.2f  y %+.2f  z %.2f  r %+.2f  buttons 0x%08x",
                             elapsed, control.x, control.y, control.z, control.r, control.buttons))
            }
        }
    }
}

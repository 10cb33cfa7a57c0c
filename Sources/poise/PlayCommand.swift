import ArgumentParser
import PoiseCommandLine
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath
import PoiseReplay
import PoiseTelemetry
import PoiseTraces
import Foundation

/// `poise play`: a trace at its recorded speed, as MAVLink telemetry.
struct PlayCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a trace at its recorded speed and send it as MAVLink telemetry.",
        discussion: """
            Runs the trace through the filter like `poise replay` (the config's \
            sensor.calibration applied unless the trace says `# calibrated=yes`), but paced by the trace's \
            own timestamps, and sends each tick to the telemetry address over UDP as MAVLink 2 \
            (HEARTBEAT, ATTITUDE, ATTITUDE_QUATERNION, SCALED_IMU, SERVO_OUTPUT_RAW, SYS_STATUS, \
            NAMED_VALUE_FLOAT) at the config's `telemetry` rates. Watch it with `poise view`, \
            QGroundControl or PlotJuggler (docs/telemetry.md).

            Examples:
              poise play run.csv --telemetry 127.0.0.1:14600   # to poise view (QGroundControl: 14550)
              poise play run.ptrace --config boards/sim.yaml --speed 2 --loop
            """)

    @Argument(help: "The trace to play (CSV or binary).")
    var trace: String

    @OptionGroup var estimation: EstimationOptions

    @Option(help: "Where to send: HOST:PORT (default: the config's telemetry.address).")
    var telemetry: String?

    @Option(parsing: .unconditional, help: "Playback speed factor (1 = recorded speed).")
    var speed: Double = 1

    @Flag(help: "Start again from the beginning at the end of the trace, until interrupted.")
    var loop = false

    @Flag(help: "Print no summary.")
    var quiet = false

    func validate() throws {
        guard speed.isFinite, speed > 0, speed <= 1000 else { throw ValidationError("--speed must be in (0, 1000]") }
    }

    func execute() throws {
        let configuration = try estimation.loadConfiguration()
        guard let text = telemetry ?? configuration.telemetry.address else {
            throw ValidationError("no telemetry address: give --telemetry HOST:PORT or set telemetry.address in the config")
        }
        let address = try TelemetryAddress(parsing: text)
        var settings = TelemetrySettings(configuration: configuration)
        // At recorded speed, once through, sensor time maps to the wall clock: say so in
        // SYSTEM_TIME, so `poise view` can show how old each sample is when drawn.
        let firstStart = MonotonicClock.now(), firstStartUnix = Date().timeIntervalSince1970
        if speed == 1 && !loop { settings.unixTimeAtSensorZero = firstStartUnix }
        let sender = try TelemetrySender(address: address, settings: settings)
        sender.start()
        let choice = try estimation.filterChoice(configuration)
        let useMagnetometer = try estimation.useMagnetometer(configuration)
        var played = 0
        var first = true
        repeat {
            let start = first ? firstStart : MonotonicClock.now()
            first = false
            let speed = self.speed
            var playback = TracePlayback(reader: try TraceReader(path: trace), configuration: configuration) { record in
                var record = record
                let due = start + record.time / speed
                let wait = due - MonotonicClock.now()
                if wait > 0 { usleep(UInt32(min(wait, 10) * 1e6)) }
                record.latenessNanoseconds = Int64(max(0, MonotonicClock.now() - due) * 1e9)
                sender.offer(record)
                return true
            }
            playback.useMagnetometer = useMagnetometer
            played += try choice.run(&playback)
        } while loop
        sender.stop()
        if !quiet {
            printError("played \(played) samples to \(address) with \(choice.kind.rawValue); "
                + "\(sender.framesSent) MAVLink frames sent, \(sender.sendFailures) refused")
        }
    }
}

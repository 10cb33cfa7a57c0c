import Benchmark
import Foundation
import PoiseControl
import PoiseLinux
import PoiseOutputs

/// Signal frames with varied values, prepared before timing.
let frames: [SignalFrame] = (0..<1024).map { i in
    var frame = SignalFrame()
    for k in 0..<SignalFrame.capacity { frame.values[k] = Float((i &* 37 &+ k &* 11) % 200) / 100 - 1 }
    return frame
}

/// Eight channels: four ESC pulses with a slew limit, two H-bridge duties, two direction lines.
let mappings: [ChannelMapping] = (0..<4).map { motor in
    .pulse(OutputSignal.allCases[motor], periodMicroseconds: 2500, minMicroseconds: 1000, maxMicroseconds: 2000,
           safeMicroseconds: 1000, slewRate: 50)
} + [
    .duty(.leftWheelDuty, periodMicroseconds: 50), .duty(.rightWheelDuty, periodMicroseconds: 50),
    .level(.leftWheelForward), .level(.rightWheelForward),
]

/// `pwmchip0` with channels 0 and 1 exported, in a temporary directory (tmpfs on most systems).
func sysfsTree() -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poise-bench-pwm-\(getpid())").path
    for channel in 0..<2 {
        let directory = root + "/pwmchip0/pwm\(channel)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["period", "duty_cycle", "enable", "polarity"] {
            FileManager.default.createFile(atPath: directory + "/" + name, contents: Data())
        }
    }
    FileManager.default.createFile(atPath: root + "/pwmchip0/export", contents: Data())
    FileManager.default.createFile(atPath: root + "/pwmchip0/unexport", contents: Data())
    return root
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3,
                                           maxDuration: .seconds(2), maxIterations: 1000)

    // Mapping one tick's signals to eight channels' physical values.
    Benchmark("Output mapper, 8 channels", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var mapper = OutputMapper(mappings)
        var sum: UInt32 = 0
        var index = 0
        for _ in benchmark.scaledIterations {
            sum &+= mapper.map(frames[index & 1023], live: true, dt: 0.0025)[0]
            index &+= 1
        }
        blackHole(sum)
    }

    // The real Linux bank over two sysfs PWM channels in a directory tree: a tick where both
    // duties change (two pwrite calls) against one where nothing changed (no system call).
    for changing in [true, false] {
        let name = changing ? "Output bank tick, 2 sysfs PWM channels changed (2 pwrite)"
                            : "Output bank tick, nothing changed (reference)"
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let root = sysfsTree()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let channels = (0..<2).map { channel in
                OutputChannelSpec(name: "pwm\(channel)", hardware: .pwm(chip: 0, channel: channel, periodNanoseconds: 50_000,
                                                                       polarity: .normal),
                                  mapping: .duty(.leftWheelDuty, periodMicroseconds: 50))
            }
            var bus = NoI2CBus()
            var bank = try! OutputBank(settings: OutputBankSettings(channels: channels, pwmSysfsRoot: root),
                                       gpio: LibgpiodDevice(), files: SysfsFiles(), bus: &bus)
            var commands = ChannelCommands(count: 2)
            var faults = 0
            var index: UInt32 = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if changing {
                    index &+= 1
                    commands[0] = 10_000 + index % 30_000
                    commands[1] = 40_000 - index % 30_000
                }
                if bank.tick(commands, dt: 0.0025) != nil { faults += 1 }
            }
            benchmark.stopMeasurement()
            _ = bank.release(unexport: false, bus: &bus)
            blackHole(faults)
        }
    }
}

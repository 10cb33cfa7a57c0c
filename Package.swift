// swift-tools-version: 6.2
// Poise: fixed-rate attitude estimation and control for an MPU-9250 on Linux boards.
// One library module per concern, layered as docs/architecture.md draws them: the tick contract
// at the bottom, two board backends of one shape, the composition at the top, the `poise`
// executable thin. scripts/check-dependencies checks that each target declares exactly what it imports.
import PackageDescription


/// The real-time path crosses modules (the tick contract, the drivers, the HAL, the Linux
/// backend); the optimiser's `@_noAllocation @_noLocks` check must see through every call,
/// so these modules are compiled for cross-module optimisation.
let realTime: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Poise",
    products: [
        .executable(name: "poise", targets: ["poise"]),
        .executable(name: "poise-view", targets: ["poise-view"]),
        .executable(name: "poise-board", targets: ["poise-board"]),
        .executable(name: "motion-manager-example", targets: ["MotionManagerExample"]),
        .library(name: "PoiseMath", targets: ["PoiseMath"]),
        .library(name: "PoiseFusion", targets: ["PoiseFusion"]),
        .library(name: "PoiseControl", targets: ["PoiseControl"]),
        .library(name: "PoiseTraces", targets: ["PoiseTraces"]),
        .library(name: "PoiseDeviceSettings", targets: ["PoiseDeviceSettings"]),
        .library(name: "PoiseConfig", targets: ["PoiseConfig"]),
        .library(name: "PoiseMotion", targets: ["PoiseMotion"]),
        .library(name: "PoiseEvaluation", targets: ["PoiseEvaluation"]),
        .library(name: "PoisePlot", targets: ["PoisePlot"]),
        .library(name: "PoiseSpectrum", targets: ["PoiseSpectrum"]),
        .library(name: "PoiseFlightCore", targets: ["PoiseFlightCore"]),
        .library(name: "PoiseHAL", targets: ["PoiseHAL"]),
        .library(name: "PoiseSensors", targets: ["PoiseSensors"]),
        .library(name: "PoiseOutputs", targets: ["PoiseOutputs"]),
        .library(name: "PoiseTelemetry", targets: ["PoiseTelemetry"]),
        .library(name: "PoiseLinux", targets: ["PoiseLinux"]),
        .library(name: "PoiseSimulation", targets: ["PoiseSimulation"]),
        .library(name: "PoiseFlightSettings", targets: ["PoiseFlightSettings"]),
        .library(name: "PoiseReplayCore", targets: ["PoiseReplayCore"]),
        .library(name: "PoiseSettings", targets: ["PoiseSettings"]),
        .library(name: "PoiseSchedules", targets: ["PoiseSchedules"]),
        .library(name: "PoiseReplay", targets: ["PoiseReplay"]),
        .library(name: "PoiseLoop", targets: ["PoiseLoop"]),
        .library(name: "PoiseRun", targets: ["PoiseRun"]),
        .library(name: "PoiseView", targets: ["PoiseView"]),
        .library(name: "PoiseMonteCarlo", targets: ["PoiseMonteCarlo"]),
        .library(name: "PoiseTuning", targets: ["PoiseTuning"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // HTTP + WebSocket for `poise view`: no dependencies of its own (a clean debug build
        // of it took 18 s here, against 151 s for Hummingbird with its WebSocket module).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // ---- Foundations: no Poise dependencies, or only the mathematics (the configuration also
        // the filters and the control laws, whose settings its keys are bound to).
        // Attitude mathematics: quaternions, matrices, Euler angles, reference and output frames,
        // and the elementary functions of its own (no libm: the same bits on every CPU).
        // These four also build in Embedded Swift for the board (scripts/build-embedded).
        .target(name: "PoiseMath"),
        // JSON text: the one string escaper (RFC 8259) every JSON and YAML writer uses; no dependencies.
        .target(name: "PoiseJSON"),
        // Attitude filters, their settings and names, device motion; allocation-free updates.
        .target(name: "PoiseFusion", dependencies: ["PoiseMath"]),
        // Control laws, arming supervisor, motor mixer and output mappings: pure value types.
        .target(name: "PoiseControl", dependencies: ["PoiseMath"]),
        // Trace files: streaming CSV and binary readers and writers. Also built in Embedded Swift
        // for the board, where its system calls go through CPoiseLibc instead of Glibc.
        .target(name: "PoiseTraces", dependencies: ["PoiseLibc", "PoiseMath"]),
        // glibc's headers with the shims Glibc's Swift overlay provides (errno, open), for the
        // Embedded Swift builds only (docs/board.md); the host build imports Glibc.
        .systemLibrary(name: "CPoiseLibc", path: "Sources/CPoiseLibc"),
        // The C library under the names Glibc's overlay gives it, for the Embedded Swift builds'
        // OS edge (empty on the host).
        .target(name: "PoiseLibc", dependencies: ["CPoiseLibc"]),
        // What runs beside the tick and what passes between threads: the one worker-thread
        // starter and the lock-free hand-overs (triple buffer, mailboxes, the tick-record ring).
        .target(name: "PoiseThreads", dependencies: ["CPoiseRealtime", "PoiseControl", "PoiseFlightCore", "PoiseLibc"]),
        // The drivers' plain settings (the MPU-9250's, the telemetry stream's), below the configuration that binds keys to them.
        .target(name: "PoiseDeviceSettings", dependencies: ["PoiseMath"], swiftSettings: realTime),
        // Human-edited configuration: loading, defaults, validation with positions.
        .target(name: "PoiseConfig", dependencies: ["PoiseControl", "PoiseDeviceSettings", "PoiseFusion", "PoiseJSON", .product(name: "Yams", package: "Yams")]),
        // Scripted motions with exact ground truth and an IMU error model.
        .target(name: "PoiseMotion", dependencies: ["PoiseMath"]),
        // Scoring estimates against ground truth (BROAD's metric); offline only.
        .target(name: "PoiseEvaluation", dependencies: ["PoiseJSON", "PoiseMath"]),
        // SVG plots with no dependencies.
        .target(name: "PoisePlot"),
        // Spectra of recordings (FFT, Welch, peaks, throttle slices) and the gyroscope filters'
        // response for `poise spectrum`; offline only.
        .target(name: "PoiseSpectrum", dependencies: ["PoiseFusion", "PoisePlot"], linkerSettings: [.linkedLibrary("m")]),

        // ---- The flight core: the tick contract and what one tick does (start-up bias, gyroscope
        // filters, filter, controller, supervisor, mapping). Drivers, telemetry and the loop build on it.
        .target(name: "PoiseFlightCore", dependencies: ["PoiseMath", "PoiseFusion", "PoiseControl", "PoiseLibc"], swiftSettings: realTime),

        // ---- The hardware abstraction (ArduPilot's AP_HAL): I²C bus, GPIO device and PWM
        // file interfaces only; no kernel calls, no C libraries.
        .target(name: "PoiseHAL", swiftSettings: realTime),
        // MPU-9250 / AK8963 driver and calibration, over any `I2CBus`.
        .target(name: "PoiseSensors", dependencies: ["PoiseDeviceSettings", "PoiseHAL", "PoiseMath", "PoiseFlightCore"], swiftSettings: realTime),
        // The host's drivers log through swift-log (a DriverLog over a Logger).
        .target(name: "PoiseLogging", dependencies: ["PoiseHAL", .product(name: "Logging", package: "swift-log")]),
        // Output bank: GPIO lines, sysfs PWM channels and the PCA9685, over any HAL backend.
        .target(name: "PoiseOutputs", dependencies: ["PoiseHAL", "PoiseControl", "PoiseLibc", "PoiseFlightCore"], swiftSettings: realTime),
        // MAVLink 2 telemetry: message encoding and decoding, the UDP sender thread.
        .target(name: "PoiseTelemetry", dependencies: ["PoiseControl", "PoiseDeviceSettings", "PoiseFusion", "PoiseLibc", "PoiseMath", "PoiseThreads", "PoiseFlightCore"]),

        // ---- Two backends of one shape (ArduPilot's AP_HAL_Linux and SITL).
        // The Linux board: i2c-dev + libi2c, libgpiod v1.6 and sysfs PWM behind one syscall layer.
        .systemLibrary(name: "CI2C", path: "Sources/CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CGPIOD", path: "Sources/CGPIOD", providers: [.apt(["libgpiod-dev"])]),
        // evdev and uinput: the kernel's headers only, no library.
        .systemLibrary(name: "CEvdev", path: "Sources/CEvdev"),
        .target(name: "PoiseLinux", dependencies: [
            "CI2C", "CGPIOD", "CEvdev", "PoiseHAL", "PoiseControl", "PoiseLibc", "PoiseDeviceSettings", "PoiseMath", "PoiseOutputs", "PoiseSensors", "PoiseThreads", "PoiseFlightCore",
        ], swiftSettings: realTime),
        // The simulated board: register-level simulated chips, plants and worlds, and the
        // coupling of both to the outputs the loop writes.
        .target(name: "PoiseSimulation", dependencies: [
            "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseHAL", "PoiseLogging", "PoiseMath", "PoiseMotion",
            "PoiseOutputs", "PoiseSensors", "PoiseThreads", .product(name: "Logging", package: "swift-log"),
        ]),

        // ---- The resolved settings the flight core and the replays run with, and their compiled
        // file (`poise compile`); and the replay loops the host and the board binary share. Both
        // build in Embedded Swift (scripts/build-embedded).
        .target(name: "PoiseFlightSettings", dependencies: [
            "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFusion", "PoiseHAL", "PoiseMath", "PoiseOutputs", "PoiseSensors",
        ]),
        .target(name: "PoiseReplayCore", dependencies: [
            "PoiseControl", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion", "PoiseMath", "PoiseOutputs", "PoiseSensors", "PoiseTraces",
        ]),
        // The real rig opened from its resolved settings (`LinuxRigParts`): the host's run and
        // the board's open it through this one builder; builds in Embedded Swift.
        .target(name: "PoiseRig", dependencies: [
            "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseHAL", "PoiseLinux", "PoiseOutputs", "PoiseSensors",
            "PoiseThreads",
        ]),

        // ---- Settings: the configuration bound to each module's typed settings.
        .target(name: "PoiseSettings", dependencies: [
            "PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion",
            "PoiseHAL", "PoiseMath", "PoiseOutputs", "PoiseSchedules", "PoiseSensors", "PoiseTelemetry", "PoiseTraces",
        ]),
        // ---- Schedules: the setpoints and drive commands a run follows, for the run and its replay.
        .target(name: "PoiseSchedules", dependencies: ["PoiseControl", "PoiseTraces"]),
        // ---- Replay: one trace pipeline for replay, tick replay, evaluation and playback.
        .target(name: "PoiseReplay", dependencies: [
            "PoiseConfig", "PoiseControl", "PoiseEvaluation", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion", "PoiseMath",
            "PoiseReplayCore", "PoiseSensors", "PoiseSettings", "PoiseTraces",
        ]),

        // ---- The loop: one tick per period on a real or a virtual clock, and what guards it.
        .target(name: "CPoiseRealtime"),
        .target(name: "PoiseLoop", dependencies: [
            "CPoiseRealtime", "PoiseControl", "PoiseFlightCore", "PoiseFusion", "PoiseLibc", "PoiseLinux", "PoiseSchedules",
            "PoiseTelemetry", "PoiseThreads",
        ], linkerSettings: [.linkedLibrary("m")]),
        // What a run says while the loop runs, off its thread: the tick reporter (recording,
        // status line, transitions), systemd's notifications, standard error. Schedules, loop
        // and reporter also build in Embedded Swift for the board (scripts/build-embedded).
        .target(name: "PoiseReporting", dependencies: [
            "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFusion", "PoiseLibc", "PoiseLoop", "PoiseMath",
            "PoiseReplayCore", "PoiseSensors", "PoiseThreads", "PoiseTraces",
        ]),
        // ---- Composition: what `poise run` and the library's MotionManager run — the board a
        // configuration describes, the links around the loop, the reporters.
        // The bench commands both programs run on the hardware: probe, safe (builds in Embedded Swift).
        .target(name: "PoiseDeviceTools", dependencies: ["PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseHAL", "PoiseMath", "PoiseOutputs", "PoiseSensors"]),
        // The parts of a live run opened from the resolved settings, for the host's run and the
        // board's (builds in Embedded Swift).
        .target(name: "PoiseLive", dependencies: [
            "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion", "PoiseLinux", "PoiseLoop", "PoiseMath",
            "PoiseOutputs", "PoiseReplayCore", "PoiseReporting", "PoiseTelemetry", "PoiseThreads", "PoiseTraces",
        ]),
        .target(name: "PoiseRun", dependencies: [
            "PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion",
            "PoiseHAL", "PoiseLinux", "PoiseLive", "PoiseLogging", "PoiseLoop", "PoiseMath", "PoiseMotion", "PoiseOutputs", "PoiseReplay",
            "PoiseReporting", "PoiseRig", "PoiseSchedules", "PoiseSensors", "PoiseSettings", "PoiseSimulation", "PoiseTelemetry", "PoiseThreads", "PoiseTraces",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // ---- Robustness: Monte-Carlo trials of the simulated loop over worlds drawn from a spread
        // (`poise simulate --trials`), on several threads, with their report and plot.
        .target(name: "PoiseMonteCarlo", dependencies: [
            "PoiseConfig", "PoiseControl", "PoiseJSON", "PoiseLoop", "PoiseMath", "PoiseOutputs", "PoisePlot", "PoiseRun",
            "PoiseSettings", "PoiseSimulation", .product(name: "Yams", package: "Yams"),
        ]),

        // ---- Viewer: the web page, its HTTP/WebSocket server and the MAVLink listener; no
        // board, no kernel libraries, no simulation.
        .target(name: "PoiseView", dependencies: [
            "PoiseConfig", "PoiseDeviceSettings", "PoiseFlightSettings", "PoiseMath", "PoiseReplay", "PoiseSettings",
            "PoiseTelemetry", "PoiseThreads", "PoiseTraces", .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "FlyingSocks", package: "FlyingFox"),
        ]),

        // ---- The board binary (docs/board.md): a plain trace through the default filter, as
        // `poise replay` writes it; built in Embedded Swift for aarch64 Linux by
        // scripts/build-board, and here for the host (its tests, scripts/check-board's baseline).
        .target(name: "PoiseBoard", dependencies: [
            "PoiseControl", "PoiseDeviceSettings", "PoiseDeviceTools", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion", "PoiseHAL",
            "PoiseLibc", "PoiseLinux", "PoiseLive", "PoiseLoop", "PoiseMath", "PoiseOutputs", "PoiseReplayCore", "PoiseReporting",
            "PoiseRig", "PoiseSchedules", "PoiseSensors", "PoiseTelemetry", "PoiseThreads", "PoiseTraces",
        ]),
        .executableTarget(name: "poise-board", dependencies: ["PoiseBoard"]),

        // ---- Programs.
        // Options shared by the two executables.
        .target(name: "PoiseCommandLine", dependencies: [
            "PoiseConfig", "PoiseFlightSettings", "PoiseFusion", "PoiseSettings", "PoiseTraces",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `poise view` lives in its own program so the web library (and the TLS stack its
        // networking pulls in) stays out of the memory of `poise run` on the board.
        .executableTarget(name: "poise-view", dependencies: [
            "PoiseCommandLine", "PoiseConfig", "PoiseTelemetry", "PoiseView",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `poise tune`: relay experiments through the loop, identification, SIMC gains.
        .target(name: "PoiseTuning", dependencies: ["PoiseConfig", "PoiseControl", "PoiseFlightCore", "PoiseFusion", "PoiseLinux", "PoiseLoop", "PoiseMath", "PoiseReplay", "PoiseRun", "PoiseSchedules", "PoiseSimulation"]),
        .executableTarget(name: "poise", dependencies: [
            "PoiseCommandLine", "PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseDeviceTools", "PoiseEvaluation", "PoiseFlightCore",
            "PoiseFlightSettings", "PoiseFusion", "PoiseHAL", "PoiseLinux", "PoiseLogging", "PoiseLoop", "PoiseMath",
            "PoiseMonteCarlo", "PoiseMotion", "PoiseOutputs", "PoisePlot", "PoiseReplay", "PoiseRun", "PoiseSchedules",
            "PoiseSensors", "PoiseSettings", "PoiseSimulation", "PoiseSpectrum", "PoiseTelemetry", "PoiseTraces", "PoiseTuning",
            .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
        ]),
        // The library API in use: a MotionManager in a program of its own (README, docs/library.md).
        .executableTarget(name: "MotionManagerExample", dependencies: ["PoiseConfig", "PoiseMath", "PoiseRun"],
                          path: "Examples/MotionManagerExample"),

        .testTarget(name: "PoiseMathTests", dependencies: ["PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseJSONTests", dependencies: ["PoiseJSON", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseFusionTests", dependencies: ["PoiseFusion", "PoiseMath", "PoiseMotion", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseTracesTests", dependencies: ["PoiseTraces", "PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseConfigTests", dependencies: ["PoiseConfig", "PoiseDeviceSettings", "PoiseSimulation", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseMotionTests", dependencies: ["PoiseMotion", "PoiseMath"]),
        .testTarget(name: "PoiseThreadsTests", dependencies: ["PoiseThreads"]),
        .testTarget(name: "PoiseLinuxTests", dependencies: ["CEvdev", "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseHAL", "PoiseLinux", "PoiseOutputs", "PoiseThreads", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseSensorsTests", dependencies: ["PoiseDeviceSettings", "PoiseHAL", "PoiseLinux", "PoiseLogging", "PoiseMath", "PoiseMotion", "PoiseSensors", "PoiseSimulation", "PoiseFlightCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "PoiseControlTests", dependencies: ["PoiseControl", "PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseOutputsTests", dependencies: ["PoiseControl", "PoiseHAL", "PoiseLinux", "PoiseOutputs", "PoiseSimulation", "PoiseFlightCore"]),
        .testTarget(name: "PoiseSimulationTests", dependencies: ["PoiseDeviceSettings", "PoiseMath", "PoiseSimulation"]),
        .testTarget(name: "PoiseSettingsTests", dependencies: ["PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseFusion", "PoiseHAL", "PoiseMath", "PoiseOutputs", "PoiseReplay", "PoiseSensors", "PoiseSettings", "PoiseTelemetry"]),
        .testTarget(name: "PoiseEvaluationTests", dependencies: ["PoiseEvaluation", "PoiseMath", "PoiseFusion"]),
        .testTarget(name: "PoisePlotTests", dependencies: ["PoisePlot"]),
        .testTarget(name: "PoiseTuningTests", dependencies: ["PoiseTuning", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseSpectrumTests", dependencies: ["PoiseFusion", "PoiseSpectrum", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseTelemetryTests", dependencies: ["PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseMath", "PoiseTelemetry", "PoiseThreads"]),
        .testTarget(name: "PoiseViewTests", dependencies: ["PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseFlightCore", "PoiseFlightSettings", "PoiseMath", "PoiseSettings", "PoiseTelemetry", "PoiseView", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseLoopTests", dependencies: ["PoiseConfig", "PoiseControl", "PoiseFlightCore", "PoiseFusion", "PoiseLive", "PoiseLoop", "PoiseMath", "PoiseReplay", "PoiseReplayCore", "PoiseReporting", "PoiseRun", "PoiseSchedules", "PoiseSensors", "PoiseSimulation", "PoiseTelemetry", "PoiseThreads", "PoiseTraces", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseMonteCarloTests", dependencies: ["PoiseConfig", "PoiseLoop", "PoiseMonteCarlo", "PoiseRun", "PoiseSimulation", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseFlightSettingsTests", dependencies: ["PoiseControl", "PoiseDeviceSettings", "PoiseFlightSettings", "PoiseFusion", "PoiseHAL", "PoiseMath", "PoiseOutputs", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseBoardTests", dependencies: ["PoiseBoard", "PoiseConfig", "PoiseControl", "PoiseDeviceSettings", "PoiseDeviceTools", "PoiseFlightSettings", "PoiseFusion", "PoiseLive", "PoiseMath", "PoiseReplay", "PoiseSensors", "PoiseSettings", "PoiseSimulation", "PoiseTraces", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseCLITests", dependencies: ["poise", "poise-view"], exclude: ["Golden", "Robots"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
// Poise: fixed-rate attitude estimation and control for an MPU-9250 on Linux boards.
// One library module per concern; the `poise` executable is a thin layer on top.
import PackageDescription


let package = Package(
    name: "Poise",
    products: [
        .executable(name: "poise", targets: ["poise"]),
        .executable(name: "poise-view", targets: ["poise-view"]),
        .executable(name: "motion-manager-example", targets: ["MotionManagerExample"]),
        .library(name: "PoiseMath", targets: ["PoiseMath"]),
        .library(name: "PoiseFusion", targets: ["PoiseFusion"]),
        .library(name: "PoiseTraces", targets: ["PoiseTraces"]),
        .library(name: "PoiseConfig", targets: ["PoiseConfig"]),
        .library(name: "PoiseMotion", targets: ["PoiseMotion"]),
        .library(name: "PoiseIO", targets: ["PoiseIO"]),
        .library(name: "PoiseSensors", targets: ["PoiseSensors"]),
        .library(name: "PoiseControl", targets: ["PoiseControl"]),
        .library(name: "PoiseOutputs", targets: ["PoiseOutputs"]),
        .library(name: "PoiseSimulation", targets: ["PoiseSimulation"]),
        .library(name: "PoiseRuntime", targets: ["PoiseRuntime"]),
        .library(name: "PoiseLoop", targets: ["PoiseLoop"]),
        .library(name: "PoisePlot", targets: ["PoisePlot"]),
        .library(name: "PoiseEvaluation", targets: ["PoiseEvaluation"]),
        .library(name: "PoiseTelemetry", targets: ["PoiseTelemetry"]),
        .library(name: "PoiseView", targets: ["PoiseView"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // HTTP + WebSocket for `poise view`: no dependencies of its own (a clean debug build
        // of it took 18 s here, against 151 s for Hummingbird with its WebSocket module).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // Attitude mathematics: quaternions, matrices, Euler angles, reference frames.
        .target(name: "PoiseMath", linkerSettings: [.linkedLibrary("m")]),
        // Sensor fusion filters and device motion; the real-time core.
        .target(name: "PoiseFusion", dependencies: ["PoiseMath"], linkerSettings: [.linkedLibrary("m")]),
        // Trace files: streaming CSV and binary readers and writers.
        .target(name: "PoiseTraces", dependencies: ["PoiseMath"]),
        // Human-edited configuration: loading, defaults, validation with positions.
        .target(name: "PoiseConfig", dependencies: [.product(name: "Yams", package: "Yams")]),
        // Scripted motions with exact ground truth and an IMU error model.
        .target(name: "PoiseMotion", dependencies: ["PoiseMath"]),
        // Linux kernel interfaces: I²C (libi2c + i2c-dev), GPIO (libgpiod v1.6), PWM (sysfs).
        .systemLibrary(name: "CI2C", path: "Sources/CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CGPIOD", path: "Sources/CGPIOD", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "PoiseIO", dependencies: [
            "CI2C", "CGPIOD",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // MPU-9250 / AK8963 drivers and calibration: only code that talks to the real chip.
        .target(name: "PoiseSensors", dependencies: [
            "PoiseIO", "PoiseMath",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Control laws: PID, balancing robot, quadrotor cascade and mixer, output mapping, arming.
        // Pure value types; the real-time core of the output half.
        .target(name: "PoiseControl", dependencies: ["PoiseMath"], linkerSettings: [.linkedLibrary("m")]),
        // Output backends: GPIO lines, sysfs PWM channels and the PCA9685, written once per tick.
        .target(name: "PoiseOutputs", dependencies: [
            "PoiseIO", "PoiseControl",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The simulated world (as ArduPilot's SITL): register-level simulated chips, plant
        // models, and the coupling of both to the outputs the loop writes.
        .target(name: "PoiseSimulation", dependencies: [
            "PoiseIO", "PoiseMath", "PoiseMotion", "PoiseSensors", "PoiseControl", "PoiseOutputs",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Replay and the fixed-rate loop.
        .target(name: "PoiseRuntime", dependencies: [
            "PoiseMath", "PoiseFusion", "PoiseTraces", "PoiseConfig", "PoiseSensors", "PoiseEvaluation",
            "PoiseControl", "PoiseOutputs", "PoiseSimulation",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Scoring estimates against ground truth (BROAD's metric).
        // The real-time loop of `poise run`: scheduler, real-time set-up, statistics, recorder
        // and signal threads, and the Linux and simulated boards it runs on.
        .target(name: "CPoiseRealtime"),
        .target(name: "PoiseLoop", dependencies: [
            "CPoiseRealtime", "PoiseRuntime", "PoiseControl", "PoiseOutputs", "PoiseSensors", "PoiseIO", "PoiseSimulation",
            "PoiseFusion", "PoiseMath", "PoiseConfig", "PoiseTraces", "PoiseTelemetry", "PoiseMotion",
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "PoiseEvaluation", dependencies: ["PoiseMath"]),
        // MAVLink 2 telemetry: message encoding and decoding, the UDP sender thread.
        .target(name: "PoiseTelemetry", dependencies: ["PoiseMath", "PoiseFusion", "PoiseControl", "PoiseRuntime", "PoiseConfig", "PoiseTraces"]),
        // `poise view`: the web page, its HTTP/WebSocket server and the MAVLink listener.
        .target(name: "PoiseView", dependencies: [
            "PoiseTelemetry", "PoiseMath", "PoiseRuntime", "PoiseConfig", "PoiseTraces",
            .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
        ]),
        // The library API in use: a MotionManager in a program of its own (README, docs/library.md).
        .executableTarget(name: "MotionManagerExample", dependencies: ["PoiseLoop", "PoiseConfig", "PoiseMath"],
                          path: "Examples/MotionManagerExample"),
        // SVG plots with no dependencies.
        .target(name: "PoisePlot"),
        // Options shared by the two executables.
        .target(name: "PoiseCommandLine", dependencies: [
            "PoiseConfig", "PoiseRuntime", "PoiseTraces",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `poise view` lives in its own program so the web library (and the TLS stack its
        // networking pulls in) stays out of the memory of `poise run` on the board.
        .executableTarget(name: "poise-view", dependencies: [
            "PoiseCommandLine", "PoiseView", "PoiseTelemetry", "PoiseConfig",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "poise", dependencies: [
            "PoiseMath", "PoiseFusion", "PoiseTraces", "PoiseConfig", "PoiseMotion",
            "PoiseIO", "PoiseSensors", "PoiseRuntime", "PoisePlot", "PoiseEvaluation",
            "PoiseControl", "PoiseOutputs", "PoiseSimulation", "PoiseTelemetry", "PoiseLoop", "PoiseCommandLine",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "PoiseMathTests", dependencies: ["PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseFusionTests", dependencies: ["PoiseFusion", "PoiseMath", "PoiseMotion", "PoiseTraces", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseTracesTests", dependencies: ["PoiseTraces", "PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseConfigTests", dependencies: ["PoiseConfig", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseMotionTests", dependencies: ["PoiseMotion", "PoiseMath"]),
        .testTarget(name: "PoiseIOTests", dependencies: ["PoiseIO"]),
        .testTarget(name: "PoiseSensorsTests", dependencies: ["PoiseSensors", "PoiseSimulation", "PoiseIO", "PoiseMotion", "PoiseMath"]),
        .testTarget(name: "PoiseControlTests", dependencies: ["PoiseControl", "PoiseMath", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseOutputsTests", dependencies: ["PoiseOutputs", "PoiseControl", "PoiseIO", "PoiseSimulation"]),
        .testTarget(name: "PoiseSimulationTests", dependencies: ["PoiseSimulation", "PoiseSensors", "PoiseControl", "PoiseFusion", "PoiseMotion", "PoiseMath", "PoiseIO"]),
        .testTarget(name: "PoiseRuntimeTests", dependencies: ["PoiseRuntime", "PoiseFusion", "PoiseTraces", "PoiseMotion", "PoiseMath", "PoiseConfig", "PoiseSimulation", "PoiseControl", "PoiseOutputs"]),
        .testTarget(name: "PoiseEvaluationTests", dependencies: ["PoiseEvaluation", "PoiseMath", "PoiseFusion"]),
        .testTarget(name: "PoisePlotTests", dependencies: ["PoisePlot"]),
        .testTarget(name: "PoiseTelemetryTests", dependencies: ["PoiseTelemetry", "PoiseRuntime", "PoiseMath", "PoiseFusion", "PoiseControl", "PoiseConfig"]),
        .testTarget(name: "PoiseViewTests", dependencies: ["PoiseView", "PoiseTelemetry", "PoiseRuntime", "PoiseMath", "PoiseTraces", "PoiseConfig", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "PoiseLoopTests", dependencies: ["PoiseLoop", "PoiseRuntime", "PoiseControl", "PoiseSimulation", "PoiseConfig", "PoiseFusion", "PoiseMath", "PoiseOutputs", "PoiseSensors"]),
        .testTarget(name: "PoiseCLITests", dependencies: ["poise", "poise-view"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
